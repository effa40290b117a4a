package io.sluice.kinds.replace;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.when;

import io.delta.tables.DeltaTable;
import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import io.sluice.execution.BatchCommits;
import io.sluice.execution.BatchLog;
import io.sluice.execution.BatchSettings;
import io.sluice.execution.KeyedBatchSink;
import io.sluice.execution.ColumnNames;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.delta.KeyedCommit;
import io.sluice.execution.FlowRun;
import io.sluice.execution.KeyBounds;
import io.sluice.execution.KeyClustering;
import io.sluice.execution.KeyedWrites;
import io.sluice.execution.Persisted;
import io.sluice.execution.Tally;
import io.sluice.expectations.BatchRequirement;
import io.sluice.expectations.ValueSample;
import io.sluice.graph.FlowMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;

/**
 * One micro-batch of a REPLACE USING flow (SEMANTICS §2.2), as a single idempotent commit.
 *
 * <p>Per key, only the rows with the batch's highest sequence count. That sequence is
 * compared with the one stored in the target for the key: higher replaces the key's rows,
 * equal appends, lower is ignored, a new key is inserted. The commit ({@link KeyedCommit})
 * removes the rows of the keys replaced and appends the batch's rows. A table that takes a
 * MERGE ({@link KeyedWrites}) gets one whose source holds the rows to insert (they never match)
 * and, per key to replace, one control row that matches all of the key's target rows and
 * deletes them; one source row per target row, so Delta's "multiple source rows matched"
 * cannot occur.
 *
 * <p>A batch that replaces no key is appended instead: it only adds rows.
 *
 * <p>Cost: Delta does not prune target files by the source's key values, so the target is
 * read through literal predicates on the first key taken from the batch (an IN list, or a
 * range for many keys). Reading the stored sequences and the commit then touch the files
 * those keys live in, not the whole table; deletion vectors (enabled on REPLACE USING
 * targets) spare rewriting the files a delete touches.
 */
public final class ReplaceUsingSink implements KeyedBatchSink {
  private static final String SEQ = "__sluice_seq";
  private static final String TARGET_SEQ = "__sluice_target_seq";
  private static final String DECISION = "__sluice_decision";
  private static final String CONTROL = "__sluice_control";
  private static final String KEY_PREFIX = "__sluice_key_";
  private static final String INSERT = "insert";
  private static final String REPLACE = "replace";
  private static final String APPEND = "append";
  private static final String LATE = "late";

  private final FlowRun run;
  private final String table;
  private final BatchLog log;
  private final FlowMode.ReplaceUsing mode;
  private final KeyedWrites writes;

  public ReplaceUsingSink(FlowRun run, String table, BatchLog log, FlowMode.ReplaceUsing mode) {
    this.run = run;
    this.table = table;
    this.log = log;
    this.mode = mode;
    this.writes = new KeyedWrites(run, "REPLACE USING");
  }

  @Override
  public String firstKey() {
    return mode.keys().get(0);
  }

  @Override
  public Written write(Dataset<Row> rows, long batchId, long rowCount, Optional<ValueSample> keys) {
    SparkSession session = rows.sparkSession();
    DeltaTarget target = DeltaTarget.table(run.target().name());
    BatchCommits commits = log.begin(session, batchId, List.of(target));
    try (Persisted persisted = new Persisted()) {
      Decisions batch = BatchSettings.forPlanning(session, () -> decide(rows, keys, persisted));
      long removed = batch.rowsWritten() + batch.keysReplaced() == 0 ? 0
          : commits.commit(session, target, () -> write(session, batch), 0L);
      Map<String, Object> metrics = new LinkedHashMap<>();
      metrics.put("keys_replaced", batch.keysReplaced());
      metrics.put("rows_inserted", batch.inserted());
      metrics.put("rows_appended", batch.appended());
      metrics.put("rows_ignored_late", rowCount - batch.rowsWritten());
      metrics.put("target_rows_removed", removed);
      return new Written(batch.rowsWritten(), metrics);
    }
  }

  /**
   * What a batch does per key: {@code decisions} holds each key's sequence and decision,
   * {@code data} the rows to write with their key's decision; with their counts.
   */
  private record Decisions(Dataset<Row> data, Dataset<Row> decisions, KeyBounds bounds, long inserted, long appended,
      long keysReplaced) {
    /** The batch's rows that go into the target: inserted and appended. */
    long rowsWritten() {
      return inserted + appended;
    }
  }

  private Decisions decide(Dataset<Row> rows, Optional<ValueSample> keys, Persisted persisted) {
    SparkSession session = rows.sparkSession();
    Dataset<Row> sequenced = rows.withColumn(SEQ, mode.sequence());
    // Persisted: the window's shuffle and the decision join feed several jobs each (bounds,
    // decisions, counts, MERGE); recomputing them would cost the batch several times over.
    Dataset<Row> kept = persisted.keep(sequenced
        .withColumn("__sluice_batch_max", max(col(SEQ)).over(Window.partitionBy(array(keyColumns("")))))
        .where(col(SEQ).equalTo(col("__sluice_batch_max")))
        .drop("__sluice_batch_max"));
    Dataset<Row> batchKeys = kept.groupBy(array(keyColumns(""))).agg(max(col(SEQ)).as(SEQ));
    KeyBounds bounds = KeyBounds.of(keys, batchKeys, firstKey());
    // With the target read by the batch's keys alone, every join that follows is between datasets
    // of at most one row per key of the batch. Planned as they are kept: a persisted dataset's
    // plan is made when it is persisted.
    Supplier<Decisions> decide = () -> decide(kept, batchKeys, bounds, persisted);
    return bounds.exactlyTheKeys(mode.keys()) ? BatchSettings.withoutBroadcasts(session, decide) : decide.get();
  }

  /** The decisions for the batch's latest rows per key ({@code kept}) against the target's rows of their keys. */
  private Decisions decide(Dataset<Row> kept, Dataset<Row> batchKeys, KeyBounds bounds, Persisted persisted) {
    SparkSession session = kept.sparkSession();
    // The batch's keys narrow the read first (KeyBounds.within), so only their rows are
    // aggregated: with keys spread over the whole table the bounds skip nothing.
    Dataset<Row> target = DeltaTarget.table(run.target().name())
        .readPinned(session, bounds.on(ColumnNames.col(firstKey())));
    Dataset<Row> stored = bounds.within(target, mode.keys(), batchKeys)
        .groupBy(array(keyColumns(""))).agg(max(mode.sequence()).as(TARGET_SEQ));
    Dataset<Row> decisions = persisted.keep(batchKeys.as("b").join(stored.as("t"), keysMatch("b", "t"), "left")
        .select(array(concat(keyColumns("b"), List.of(col("b." + SEQ).as(SEQ), decision().as(DECISION))))));
    Dataset<Row> data = persisted.keep(kept.as("k").join(decisions.as("d"), keysMatch("k", "d"))
        .where(col("d." + DECISION).isin(INSERT, REPLACE, APPEND))
        .select(array(concat(tableColumns("k"), List.of(col("d." + DECISION).as(DECISION))))));
    long[][] counts = Tally.countAll(
        Tally.of(data, col(DECISION).isin(INSERT, REPLACE), col(DECISION).equalTo(APPEND)),
        Tally.of(decisions, col(DECISION).equalTo(REPLACE)));
    return new Decisions(data, decisions, bounds, counts[0][0], counts[0][1], counts[1][0]);
  }

  /**
   * Writes one batch; returns the number of target rows it deleted. A batch that replaces no
   * key (new keys, rows at a key's stored sequence, a first load) only adds rows: it is appended,
   * in key ranges ({@link KeyClustering}).
   */
  private long write(SparkSession session, Decisions batch) {
    if (batch.keysReplaced() == 0) {
      DeltaWrites.append(KeyClustering.byKeys(batch.data().select(array(tableColumns(""))), mode.keys(),
          batch.rowsWritten()), table);
      return 0;
    }
    Optional<KeyedCommit> commit = writes.commit(session);
    if (commit.isEmpty()) {
      return merge(session, batch.data(), batch.decisions(), batch.bounds());
    }
    return commit.get()
        .removing(batch.decisions().where(col(DECISION).equalTo(REPLACE)).select(array(keyColumns(""))), mode.keys(),
            batch.bounds().on(ColumnNames.col("t", firstKey())))
        .appending(batch.data().select(array(tableColumns(""))))
        .parameter("keys", String.join(", ", mode.keys()))
        .metric("numKeysReplaced", batch.keysReplaced())
        .commit()
        .rowsRemoved();
  }

  /** The MERGE of one batch, for a table that takes one; returns the number of target rows it deleted. */
  private long merge(SparkSession session, Dataset<Row> data, Dataset<Row> decisions, KeyBounds bounds) {
    Dataset<Row> dataRows = data.select(array(concat(tableColumns(""), concat(List.of(lit(false).as(CONTROL)), nullKeys()))));
    Dataset<Row> controlRows = decisions.where(col(DECISION).equalTo(REPLACE))
        .select(array(concat(nullTableColumns(), concat(List.of(lit(true).as(CONTROL)), renamedKeys()))));
    Dataset<Row> source = dataRows.unionByName(controlRows);
    Column on = col("s." + CONTROL).and(bounds.on(ColumnNames.col("t", firstKey())));
    for (int i = 0; i < mode.keys().size(); i++) {
      on = on.and(ColumnNames.col("t", mode.keys().get(i)).eqNullSafe(col("s." + KEY_PREFIX + i)));
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String column : run.targetSchema().fieldNames()) {
      values.put(Identifiers.quote(column), "s." + Identifiers.quote(column));
    }
    Dataset<Row> result = DeltaTable.forName(session, table).as("t")
        .merge(source.as("s"), on)
        .whenMatched().delete()
        .whenNotMatched("NOT s." + CONTROL).insertExpr(values)
        .execute();
    List<Row> metrics = result.collectAsList();
    if (metrics.isEmpty() || !List.of(result.columns()).contains("num_deleted_rows")) {
      return 0;
    }
    return metrics.get(0).getLong(metrics.get(0).fieldIndex("num_deleted_rows"));
  }

  /** A NULL sequence fails the flow (SEMANTICS §2.4), before anything of the batch is written. */
  @Override
  public List<BatchRequirement> requirements() {
    return List.of(new BatchRequirement(mode.sequence().isNotNull(), row -> new SluiceException(
        ErrorClass.REPLACE_USING_NULL_SEQUENCE, run.flow().definition().origin(), "flow '" + run.flow().name()
            + "': SEQUENCE BY " + mode.sequence() + " is NULL for row " + row
            + "; drop such rows with an expectation, e.g. CONSTRAINT has_sequence EXPECT (... IS NOT NULL)"
            + " ON VIOLATION DROP ROW")));
  }

  private Column decision() {
    Column batch = col("b." + SEQ);
    Column target = col("t." + TARGET_SEQ);
    return when(target.isNull(), lit(INSERT))
        .when(batch.gt(target), lit(REPLACE))
        .when(batch.equalTo(target), lit(APPEND))
        .otherwise(lit(LATE));
  }

  private Column keysMatch(String left, String right) {
    Column match = lit(true);
    for (String key : mode.keys()) {
      match = match.and(ColumnNames.col(left, key).eqNullSafe(ColumnNames.col(right, key)));
    }
    return match;
  }

  /** The key columns, of the DataFrame aliased {@code alias} (none when empty). */
  private List<Column> keyColumns(String alias) {
    return mode.keys().stream().map(k -> column(alias, k)).toList();
  }

  private List<Column> tableColumns(String alias) {
    List<Column> columns = new ArrayList<>();
    for (String column : run.targetSchema().fieldNames()) {
      columns.add(column(alias, column).as(column));
    }
    return columns;
  }

  private static Column column(String alias, String name) {
    return alias.isEmpty() ? ColumnNames.col(name) : ColumnNames.col(alias, name);
  }

  private List<Column> nullTableColumns() {
    List<Column> columns = new ArrayList<>();
    for (var field : run.targetSchema().fields()) {
      columns.add(lit(null).cast(field.dataType()).as(field.name()));
    }
    return columns;
  }

  private List<Column> nullKeys() {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < mode.keys().size(); i++) {
      var type = run.targetSchema().apply(run.targetSchema().fieldIndex(mode.keys().get(i))).dataType();
      columns.add(lit(null).cast(type).as(KEY_PREFIX + i));
    }
    return columns;
  }

  private List<Column> renamedKeys() {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < mode.keys().size(); i++) {
      columns.add(ColumnNames.col(mode.keys().get(i)).as(KEY_PREFIX + i));
    }
    return columns;
  }

  private static Column[] array(List<Column> columns) {
    return columns.toArray(Column[]::new);
  }

  private static List<Column> concat(List<Column> first, List<Column> second) {
    List<Column> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
