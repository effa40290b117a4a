package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import io.sluice.execution.BatchSink;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.ColumnNames;
import io.sluice.execution.CommitTag;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowRun;
import io.sluice.execution.IncomingBatch;
import io.sluice.execution.KeyedWrites;
import io.sluice.execution.Persisted;
import io.sluice.execution.TableWriter;
import io.sluice.execution.Tally;
import io.sluice.expectations.BatchQuality;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.graph.FlowMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Applies one snapshot to an AUTO CDC FROM SNAPSHOT target (SEMANTICS §5.3): the snapshot is
 * compared with the table (SCD type 1) or its open versions (SCD type 2), and one commit
 * writes only the keys that changed, so unchanged rows are not rewritten.
 *
 * <p>When AUTO CDC flows share the (SCD type 1) target (§5.5), a key whose stored change
 * event is newer than the snapshot is left to that event; and the keys the snapshot changed
 * are recorded in their state store as events at the snapshot's version, read back from the
 * target commit's change feed, so a change event with a lower sequence that arrives later is
 * ignored. The store's commit comes after the target's: a crash between them is finished
 * from the same change feed ({@link #afterCommit}).
 */
final class SnapshotSink implements BatchSink {
  private final FlowRun run;
  private final String table;
  private final String appId;
  private final AutoCdcColumns columns;
  private final FlowMode.AutoCdcFromSnapshot mode;
  private final Optional<SharedCdcState> shared;
  private final KeyedWrites writes;
  private SnapshotEntry snapshot;
  private Object version;

  private SnapshotSink(FlowRun run, FlowMode.AutoCdcFromSnapshot mode, String appId, Optional<SharedCdcState> shared) {
    this.run = run;
    this.table = run.target().name().quoted();
    this.appId = appId;
    this.columns = AutoCdcColumns.of(run.flow());
    this.mode = mode;
    this.shared = shared;
    this.writes = new KeyedWrites(run, "AUTO CDC FROM SNAPSHOT");
  }

  static SnapshotSink open(FlowRun run, FlowMode.AutoCdcFromSnapshot mode, String appId, Checkpoints checkpoints) {
    Optional<SharedCdcState> shared = SharedCdcState.of(run, checkpoints);
    shared.ifPresent(state -> state.refuseUnfinishedBatches(run, checkpoints));
    return new SnapshotSink(run, mode, appId, shared);
  }

  /** This sink, for {@code snapshot}. */
  SnapshotSink at(SnapshotEntry snapshot) {
    this.snapshot = snapshot;
    this.version = snapshot.version();
    return this;
  }

  /**
   * Finishes a snapshot whose target commit is made: AUTO CDC flows that share the target
   * learn its changes from that commit's change feed, so what they record is what was applied.
   */
  void afterCommit(SnapshotEntry committed) {
    shared.ifPresent(state -> state.recordCommit(run.spark(), run.target().name(), appId, committed));
  }

  /** The snapshot's rows in the flow's columns; a snapshot with other columns fails the flow. */
  Dataset<Row> conform(Dataset<Row> rows) {
    StructType expected = run.flow().schema();
    List<String> problems = new ArrayList<>();
    List<Column> select = new ArrayList<>();
    for (StructField field : expected.fields()) {
      Optional<StructField> actual = Identifiers.field(rows.schema(), field.name());
      if (actual.isEmpty()) {
        problems.add("it lacks column " + field.name());
      } else if (!actual.get().dataType().equals(field.dataType())) {
        problems.add("column " + field.name() + " is " + actual.get().dataType().sql() + ", not " + field.dataType().sql());
      } else {
        select.add(col(actual.get().name()).as(field.name()));
      }
    }
    for (StructField field : rows.schema().fields()) {
      if (!Identifiers.hasField(expected, field.name())) {
        problems.add("it has a column " + field.name() + " that " + run.target().name() + " does not");
      }
    }
    if (!problems.isEmpty()) {
      throw new SluiceException(ErrorClass.SNAPSHOT_SCHEMA_MISMATCH, run.flow().definition().origin(), "flow '"
          + run.flow().name() + "': the snapshot of version " + version + " does not have the flow's columns: "
          + String.join("; ", problems));
    }
    return rows.select(select.toArray(Column[]::new));
  }

  /**
   * A snapshot compared with a table it does not share is counted, checked and compared in one
   * pass over its rows (its expectations observed as the comparison reads it, its keys checked
   * by the comparison's own join); a first load, or a target AUTO CDC flows share, is checked
   * first ({@link #write}).
   */
  @Override
  public Taken take(IncomingBatch batch) {
    SparkSession session = run.spark();
    if (shared.isPresent() || DeltaTarget.table(run.target().name()).isEmpty(session)) {
      return batch.checkThenWrite(this);
    }
    return batch.checkAsRead(observed -> {
      BatchQuality[] quality = new BatchQuality[1];
      SnapshotKeys keys = SnapshotKeys.checked(columns.keys(), mode.scdType().keepsHistory());
      Written written = compare(session, observed.rows(), batch.id(), keys, () -> {
        quality[0] = observed.checked().get().quality();
        return quality[0].outputRows();
      }, () -> {
        refuseBadKeys(observed.rows());
        throw new IllegalStateException("flow '" + run.flow().name() + "': the comparison refused a key of the snapshot"
            + " that a count of its keys then found sound");
      });
      return new Taken(quality[0], written);
    });
  }

  /** A checked snapshot: a first load, or one compared with a target AUTO CDC flows share. */
  @Override
  public Written write(Dataset<Row> rows, long number, long rowCount) {
    SparkSession session = rows.sparkSession();
    refuseBadKeys(rows);
    if (shared.isEmpty() && DeltaTarget.table(run.target().name()).isEmpty(session)) {
      return firstLoad(rows, number, rowCount, lit(version).cast(columns.sequenceType()));
    }
    return compare(session, rows, number, SnapshotKeys.unchecked(columns.keys()), () -> rowCount, () -> {});
  }

  /**
   * Compares the snapshot with the target and commits what differs.
   *
   * @param checkedRows runs after the comparison's Spark job, before anything is committed: the
   *     snapshot's rows, or it fails the snapshot (an expectation)
   * @param refuseKeys fails the snapshot for the key {@code keys} refused
   */
  private Written compare(SparkSession session, Dataset<Row> rows, long number, SnapshotKeys keys, LongSupplier checkedRows,
      Runnable refuseKeys) {
    Column at = lit(version).cast(columns.sequenceType());
    DeltaTarget target = DeltaTarget.table(run.target().name());
    List<String> match = new ArrayList<>(columns.keys());
    Dataset<Row> compared;
    Dataset<Row> changes;
    if (mode.scdType().keepsHistory()) {
      match.add(AutoCdcColumns.START_AT);
      compared = target.readPinned(session)
          .where(col(AutoCdcColumns.END_AT).isNull())
          .select(ColumnNames.cols(List.of(columns.targetSchema().fieldNames())));
      changes = SnapshotHistory.changes(compared, rows, at, columns, keys);
    } else {
      compared = target.readPinned(session).select(ColumnNames.cols(List.of(rows.columns())));
      changes = KeyedDiff.changes(compared, rows, keys, columns.values());
    }
    if (shared.isPresent()) {
      changes = shared.get().withoutNewerKeys(session, changes, at);
    }
    try (Persisted persisted = new Persisted()) {
      Dataset<Row> diff = persisted.keep(changes);
      List<Tally> tallies = new ArrayList<>(List.of(Tally.of(diff, KeyedDiff.is(KeyedDiff.INSERT),
          KeyedDiff.is(KeyedDiff.UPDATE), KeyedDiff.is(KeyedDiff.DELETE), KeyedDiff.is(KeyedDiff.REFUSED))));
      tallies.addAll(keys.tallies(compared, diff));
      List<long[]> tallied = List.of(Tally.countAll(tallies.toArray(Tally[]::new)));
      long[] counts = tallied.get(0);
      long rowCount = checkedRows.getAsLong();
      if (counts[3] > 0 || keys.metTwice(tallied.subList(1, tallied.size()), rowCount)) {
        refuseKeys.run();
      }
      long changed = counts[0] + counts[1] + counts[2];
      if (changed > 0) {
        DeltaWrites.tagged(session, new CommitTag(appId, number), () -> apply(session, diff, counts, match));
        afterCommit(snapshot);
      }
      return new Written(changed, metrics(rowCount, counts));
    }
  }

  /**
   * A snapshot into an empty target (a first load, or after a full refresh): every row is
   * new, so it is appended as it comes, with no diff, and an SCD type 2 row opens its version
   * at the snapshot's. Not for a target AUTO CDC flows share, whose stored events may decide
   * some keys.
   *
   * <p>Not in key ranges, unlike an AUTO CDC first load: every later snapshot is compared with
   * the whole table, so ranges would spare no read, and sorting them cost a third of the load.
   */
  private Written firstLoad(Dataset<Row> rows, long number, long rowCount, Column at) {
    Column[] opened = SnapshotHistory.opened("s", at, columns).toArray(Column[]::new);
    Dataset<Row> inserted = TableWriter.align(rows.as("s").select(opened), run.targetSchema());
    if (rowCount > 0) {
      DeltaWrites.tagged(rows.sparkSession(), new CommitTag(appId, number),
          () -> DeltaWrites.append(inserted, table));
    }
    return new Written(rowCount, metrics(rowCount, new long[] {rowCount, 0, 0}));
  }

  /** @param counts the target rows inserted, updated and deleted */
  private Map<String, Object> metrics(long rowCount, long[] counts) {
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("snapshot_version", String.valueOf(version));
    metrics.put("snapshot_rows", rowCount);
    metrics.put("target_rows_inserted", counts[0]);
    metrics.put("target_rows_updated", counts[1]);
    metrics.put("target_rows_deleted", counts[2]);
    return metrics;
  }

  /**
   * Brings the target to the snapshot: a snapshot that only adds rows (the first one, above
   * all) is appended, since the target holds no row it would match; any other is one commit
   * of its changes ({@link KeyedDiff#write}).
   *
   * @param counts the rows to insert, update and delete
   */
  private void apply(SparkSession session, Dataset<Row> diff, long[] counts, List<String> match) {
    if (counts[1] == 0 && counts[2] == 0) {
      Dataset<Row> rows = TableWriter.align(diff.drop(KeyedDiff.ACTION), run.targetSchema());
      DeltaWrites.append(rows, table);
      return;
    }
    Column scope = mode.scdType().keepsHistory() ? col("t", AutoCdcColumns.END_AT).isNull() : lit(true);
    KeyedDiff.write(writes, session, table, run.targetSchema(), diff, scope, match, counts);
  }

  /** §5.4: a key appears at most once in a snapshot, and is never NULL. */
  private void refuseBadKeys(Dataset<Row> rows) {
    Column nullKey = lit(false);
    for (String key : columns.keys()) {
      nullKey = nullKey.or(col(key).isNull());
    }
    List<Row> offending = rows.groupBy(ColumnNames.cols(columns.keys()))
        .agg(count(lit(true)).as("rows"))
        .where(col("rows").gt(1).or(nullKey))
        .select(col("rows"), to_json(struct(ColumnNames.cols(columns.keys())), Map.of("ignoreNullFields", "false")).as("key"),
            nullKey.as("null_key"))
        .takeAsList(1);
    if (offending.isEmpty()) {
      return;
    }
    Row row = offending.get(0);
    String flow = "flow '" + run.flow().name() + "'";
    if (!row.getBoolean(2)) {
      throw new SluiceException(ErrorClass.SNAPSHOT_DUPLICATE_KEY, run.flow().definition().origin(), flow + ": the snapshot of"
          + " version " + version + " has " + row.getLong(0) + " rows with key " + row.getString(1)
          + "; a snapshot holds one row per key. Nothing of it was applied");
    }
    throw new SluiceException(ErrorClass.SNAPSHOT_NULL_KEY, run.flow().definition().origin(), flow + ": the snapshot of version "
        + version + " has a row whose key " + row.getString(1) + " is NULL. Nothing of it was applied");
  }
}
