package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static io.sluice.kinds.autocdc.CdcEvents.OP;
import static io.sluice.kinds.autocdc.CdcEvents.RECORDED_AT;
import static io.sluice.kinds.autocdc.CdcEvents.SEQ;
import static io.sluice.kinds.autocdc.CdcEvents.TRUNCATE;
import static io.sluice.kinds.autocdc.CdcEvents.VALUES;
import static org.apache.spark.sql.functions.current_timestamp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import io.sluice.execution.BatchCommits;
import io.sluice.execution.BatchLog;
import io.sluice.execution.BatchSettings;
import io.sluice.execution.KeyedBatchSink;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.ColumnNames;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowRun;
import io.sluice.execution.KeyedWrites;
import io.sluice.execution.KeyBounds;
import io.sluice.execution.KeyClustering;
import io.sluice.execution.Persisted;
import io.sluice.execution.TableWriter;
import io.sluice.execution.Tally;
import io.sluice.expectations.BatchRequirement;
import io.sluice.expectations.ValueSample;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.graph.FlowMode;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * One micro-batch of an AUTO CDC flow (SEMANTICS §4). The batch's events are combined with
 * the events the state store holds for the same keys and replayed in sequence order into the
 * rows those keys should have; the stored events alone replay into the rows they have now.
 * One commit of only what differs ({@link KeyedDiff#write}; an append, when that is only new
 * rows) brings the target there, and the batch's new events are appended to the store. Where a
 * key's last event decides its row, a row differs when that event is new.
 *
 * <p>Exactly-once: the target's write and the store's append are the batch's two commits in its
 * {@link BatchLog}, the target's first. The replay depends only on the store and the batch,
 * so a batch replayed after a crash between the two commits computes the same result: the
 * target's commit is found made and the store's is made.
 *
 * <p>Cost: the store is read through literal bounds on the first key (see {@link KeyBounds}),
 * and so is the target by its commit, so a batch touches the files its keys live in. A new
 * TRUNCATE is the exception: it affects every key, so that batch reads both in full. Where a
 * key's last event decides its row, the store's values are not read: a row changes when its
 * last event is new; only a batch whose events meet stored ones at a key and sequence (an event
 * delivered again, a rival) is planned again with them, since their values decide which stays.
 */
public final class AutoCdcSink implements KeyedBatchSink {
  /**
   * What tells a key's row changed where its last event decides it: that event's sequence and
   * whether the batch brought it. An upsert that repeats the row's values changes it too.
   */
  private static final List<String> WINNER = List.of(SEQ, CdcEvents.NOT_STORED);
  private final FlowRun run;
  private final String table;
  private final BatchLog log;
  private final CdcStateStore store;
  private final CdcEvents events;
  private final AutoCdcColumns columns;
  private final FlowMode.AutoCdc mode;
  private final long versionAtOpen;
  private final KeyedWrites writes;

  /**
   * The sink of one flow's run: opens (or creates) the target's state store, and forgets its
   * expired SCD type 1 tombstones before the run's batches, when a look is due
   * ({@link TombstoneSchedule}). Not while a flow into the target has a batch to run again:
   * the batch must see the state its first attempt saw.
   */
  public static AutoCdcSink open(FlowRun run, FlowMode.AutoCdc mode, String table, BatchLog log, Checkpoints checkpoints) {
    CdcEvents events = new CdcEvents(run.flow(), mode);
    CdcStateStore store = CdcStateStore.open(run.spark(), checkpoints.autoCdcState(run.target().name()), events.storeSchema());
    new SharedCdcState(store, events).settleSnapshots(run, checkpoints);
    if (!mode.scdType().keepsHistory() && run.flowsIntoTarget().stream()
        .noneMatch(f -> BatchLog.unfinished(checkpoints, run.target().name(), f.name()).isPresent())) {
      Duration threshold = AutoCdcTableProperties.tombstoneThreshold(run.target());
      new TombstoneSchedule(checkpoints.tombstoneCheck(run.target().name()), Clock.systemUTC())
          .lookIfDue(threshold, () -> store.collectTombstones(run.spark(), threshold, events.keys()));
    }
    return new AutoCdcSink(run, events, table, log, store);
  }

  /** A NULL key or sequence fails the flow before the batch is applied (§4). */
  @Override
  public List<BatchRequirement> requirements() {
    return events.requirements();
  }

  /** Compacts the SCD type 1 store after the run's batches, when due. */
  @Override
  public void finish() {
    if (!mode.scdType().keepsHistory()) {
      compactIfDue();
    }
  }

  private AutoCdcSink(FlowRun run, CdcEvents events, String table, BatchLog log, CdcStateStore store) {
    this.run = run;
    this.table = table;
    this.log = log;
    this.store = store;
    this.events = events;
    this.columns = events.columns();
    this.mode = events.mode();
    this.versionAtOpen = store.version(run.spark());
    this.writes = new KeyedWrites(run, "AUTO CDC");
  }

  @Override
  public String firstKey() {
    return columns.keys().get(0);
  }

  @Override
  public Written write(Dataset<Row> rows, long batchId, long rowCount, Optional<ValueSample> keys) {
    SparkSession session = rows.sparkSession();
    DeltaTarget target = DeltaTarget.table(run.target().name());
    BatchCommits commits = log.begin(session, batchId, List.of(target, store.target()));
    try (Persisted firstPlan = new Persisted(); Persisted withValues = new Persisted()) {
      Changes planned = BatchSettings.forPlanning(session, () -> changes(rows, rowCount, keys, firstPlan, false));
      if (events.lastEventDecides() && planned.counts().tied() > 0) {
        firstPlan.close();
        planned = BatchSettings.forPlanning(session, () -> changes(rows, rowCount, keys, withValues, true));
      }
      Changes changes = planned;
      Counts counts = changes.counts();
      warnAboutRivals(counts.rivalKeys(), batchId);
      if (counts.targetChanges() > 0) {
        commits.commit(session, target, () -> applyToTarget(session, changes, counts));
      }
      if (counts.storeChanges() > 0) {
        commits.commit(session, store.target(),
            () -> store.append(changes.inKeyRanges(changes.newEvents(), columns.keys(), counts.storeChanges())));
      }
      return new Written(counts.upserted() + counts.deleted(), counts.metrics(rowCount, changes.truncates()));
    }
  }

  /**
   * Brings the target's rows to the batch's: a batch that only inserts rows (new keys, new
   * versions, a first load) appends them, since the target holds no row of their keys (it holds
   * what the stored events make of them, and those made none), in key ranges
   * ({@link KeyClustering}); any other batch is one commit of its changes ({@link KeyedDiff#write}).
   */
  private void applyToTarget(SparkSession session, Changes changes, Counts counts) {
    if (counts.updated() == 0 && counts.removed() == 0) {
      Dataset<Row> rows = TableWriter.align(changes.target(), run.targetSchema());
      DeltaWrites.append(changes.inKeyRanges(rows, columns.keys(), counts.inserted()), table);
    } else {
      KeyedDiff.write(writes, session, table, run.targetSchema(), changes.target(), changes.targetScope(), targetMatch(),
          new long[] {counts.inserted(), counts.updated(), counts.removed()});
    }
  }

  /**
   * What a batch changes: the target's rows (a {@link KeyedDiff}) within the scope of the
   * batch's keys, the events the store does not hold yet, and their counts.
   *
   * @param clustered whether the rows are in key ranges already (a first load's)
   */
  private record Changes(Dataset<Row> target, Column targetScope, Dataset<Row> newEvents, Counts counts,
      boolean truncates, boolean clustered) {
    /** {@code rows} of this batch, in key ranges for an append ({@link KeyClustering}). */
    Dataset<Row> inKeyRanges(Dataset<Row> rows, List<String> keys, long rowCount) {
      return clustered ? rows : KeyClustering.byKeys(rows, keys, rowCount);
    }
  }

  /**
   * What the batch changes in the target and the store, planned and counted (one Spark job).
   *
   * @param keys the batch's values of its first key column, when its counts sampled them all
   * @param readValues whether to read the stored events' values where the last event decides
   *     a key's row ({@link CdcEvents#lastEventDecides}): only when events of the batch meet
   *     stored ones at a key and sequence ({@link Counts#tied}), where their values decide
   */
  private Changes changes(Dataset<Row> rows, long rowCount, Optional<ValueSample> keys, Persisted persisted,
      boolean readValues) {
    SparkSession session = rows.sparkSession();
    Dataset<Row> incoming = events.of(rows);
    Truncation truncation = Truncation.of(session, store, incoming, truncates());
    Dataset<Row> changed = incoming.where(col(OP).notEqual(lit(TRUNCATE)));
    String firstKey = firstKey();
    boolean firstEvents = store.isEmpty(session);
    Scope scope = truncation.isNew() || firstEvents
        ? Scope.everything()
        : Scope.of(changed.select(ColumnNames.cols(columns.keys())).distinct(), firstKey, keys);
    Dataset<Row> read = scope.select(store.read(session, scope.on(col(firstKey))).where(col(OP).notEqual(lit(TRUNCATE))),
        columns.keys()).drop(RECORDED_AT);
    if (events.lastEventDecides() && !readValues) {
      read = read.withColumn(VALUES, lit(null).cast(read.schema().apply(VALUES).dataType()));
    }
    // An empty store stays a local relation, which the optimizer drops from the joins below.
    Dataset<Row> storedEvents = firstEvents ? read : persisted.keep(read);
    // A first load is appended: its events are shuffled once, into the key ranges both
    // appends write, which the replay's windows take as their partitioning.
    Dataset<Row> batchEvents = firstEvents ? KeyClustering.byKeys(changed, columns.keys(), rowCount) : changed;
    Dataset<Row> deduped = persisted.keep(truncation.after(events.dedupeNotingRivals(storedEvents, batchEvents)));
    CdcReplay replay = replay(deduped.drop(CdcEvents.RIVALLED));
    // Both are read by the counts and again by the writes. Without stored events each is a
    // projection of the cached replay (the diff has nothing to join): cheaper to compute twice
    // than to cache.
    UnaryOperator<Dataset<Row>> keepReused = firstEvents ? UnaryOperator.identity() : persisted::keep;
    Dataset<Row> newEvents = keepReused.apply(truncation.withMarker(replay.kept().where(col(CdcEvents.NOT_STORED))
        .drop(CdcEvents.NOT_STORED, CdcEvents.TIED).withColumn(RECORDED_AT, current_timestamp())));
    // The target holds what the stored events make of its keys (each batch commits the target
    // first, then the store, and a replayed batch skips the target's commit), so its rows
    // before the batch come from the store, not from a read of the target.
    // The empty union gives the stored events the batch's columns, should the flow have new ones.
    Dataset<Row> stored = storedEvents.unionByName(changed.where(lit(false)), true);
    CdcReplay before = replay(truncation.beforeBatch(events.dedupe(stored)));
    Dataset<Row> targetChanges = keepReused.apply(events.lastEventDecides()
        ? KeyedDiff.changes(CdcReplay.lastRows(before.kept(), columns, lit(false)),
            CdcReplay.lastRows(replay.kept(), columns, col(CdcEvents.NOT_STORED)), columns.keys(), WINNER)
            .drop(WINNER.toArray(String[]::new))
        : KeyedDiff.changes(before.rows().select(ColumnNames.cols(List.of(replay.rows().columns()))), replay.rows(),
            targetMatch(), others(targetMatch())));
    Counts counts = Counts.of(newEvents, targetChanges, deduped.where(col(CdcEvents.RIVALLED)),
        deduped.where(col(CdcEvents.TIED)));
    return new Changes(targetChanges, scope.on(col("t", firstKey)), newEvents, counts, truncation.isNew(), firstEvents);
  }

  private CdcReplay replay(Dataset<Row> events) {
    return mode.scdType().keepsHistory() ? CdcReplay.scd2(events, columns) : CdcReplay.scd1(events, columns);
  }

  /**
   * SCD type 1 keeps only the events that still decide something: when the store's commits
   * passed a multiple of the compaction interval during this run, it is rewritten with just
   * those, so it grows with the keys, not with the events.
   */
  private void compactIfDue() {
    long interval = AutoCdcTableProperties.stateCompactionInterval(run.target());
    if (store.version(run.spark()) / interval == versionAtOpen / interval) {
      return;
    }
    SparkSession spark = run.spark();
    Dataset<Row> all = store.read(spark);
    Truncation truncation = Truncation.of(spark, store, all.limit(0), truncates());
    Dataset<Row> live = all.where(col(OP).notEqual(lit(TRUNCATE)));
    Dataset<Row> needed = CdcReplay.scd1(truncation.after(events.dedupe(live)), columns).kept();
    store.compact(needed.unionByName(all.where(col(OP).equalTo(lit(TRUNCATE)))));
  }

  /** Whether any flow into the target can truncate it: a truncate voids the older events of every flow. */
  private boolean truncates() {
    return run.graph().flowsInto(run.target().name()).stream()
        .anyMatch(f -> f.mode() instanceof FlowMode.AutoCdc cdc && cdc.truncateWhen().isPresent());
  }

  private List<String> targetMatch() {
    List<String> match = new ArrayList<>(columns.keys());
    if (mode.scdType().keepsHistory()) {
      match.add(AutoCdcColumns.START_AT);
    }
    return match;
  }

  private List<String> others(List<String> match) {
    List<String> others = new ArrayList<>();
    for (StructField field : columns.targetSchema().fields()) {
      if (!match.contains(field.name())) {
        others.add(field.name());
      }
    }
    return others;
  }

  /**
   * What one batch changed: the events the store took (§4.7's upserts and deletes), from the
   * target's diff its rows inserted, updated and deleted, the keys with rival upserts, and the
   * {@link CdcEvents#TIED} pairs of key and sequence. One action computes them all, so they cost
   * one Spark job.
   */
  private record Counts(long storeChanges, long upserted, long deleted, long inserted, long updated, long removed,
      long rivalKeys, long tied) {
    static Counts of(Dataset<Row> newEvents, Dataset<Row> targetChanges, Dataset<Row> rivals, Dataset<Row> tied) {
      long[][] counts = Tally.countAll(
          Tally.of(newEvents, lit(true), col(OP).equalTo(lit(CdcEvents.UPSERT)), col(OP).equalTo(lit(CdcEvents.DELETE))),
          Tally.of(targetChanges, KeyedDiff.is(KeyedDiff.INSERT), KeyedDiff.is(KeyedDiff.UPDATE), KeyedDiff.is(KeyedDiff.DELETE)),
          Tally.of(rivals, lit(true)),
          Tally.of(tied, lit(true)));
      long[] events = counts[0];
      long[] rows = counts[1];
      return new Counts(events[0], events[1], events[2], rows[0], rows[1], rows[2], counts[2][0], counts[3][0]);
    }

    long targetChanges() {
      return inserted + updated + removed;
    }

    Map<String, Object> metrics(long rowCount, boolean truncated) {
      Map<String, Object> metrics = new LinkedHashMap<>();
      metrics.put("num_upserted_rows", upserted);
      metrics.put("num_deleted_rows", deleted);
      metrics.put("num_ignored_events", Math.max(0, rowCount - upserted - deleted - (truncated ? 1 : 0)));
      metrics.put("num_truncates", truncated ? 1L : 0L);
      metrics.put("target_rows_inserted", inserted);
      metrics.put("target_rows_updated", updated);
      metrics.put("target_rows_deleted", removed);
      return metrics;
    }
  }

  /** §4.3: two different upserts at one key and sequence are resolved, and said so. */
  private void warnAboutRivals(long keys, long batchId) {
    if (keys > 0) {
      run.warn("batch " + batchId + ": " + keys + " key(s) had different upserts at one sequence; kept, for each,"
          + " the one whose values sort last as JSON", Map.of("batch_id", batchId, "keys_with_rival_upserts", keys));
    }
  }

  /** Which keys a batch touches: those of its events, or every key when a truncate empties the table. */
  private record Scope(KeyBounds bounds, Dataset<Row> keys) {
    static Scope everything() {
      return new Scope(null, null);
    }

    static Scope of(Dataset<Row> keys, String firstKey, Optional<ValueSample> sample) {
      return new Scope(KeyBounds.of(sample, keys, firstKey), keys);
    }

    /** The rows of {@code rows} that belong to the scope's keys ({@link KeyBounds#within}). */
    Dataset<Row> select(Dataset<Row> rows, List<String> keyColumns) {
      return keys == null ? rows : bounds.within(rows, keyColumns, keys);
    }

    Column on(Column firstKey) {
      return keys == null ? lit(true) : bounds.on(firstKey);
    }
  }

  /**
   * The truncate watermark (SCD type 1, §4.5): the highest sequence a truncate was applied
   * at. Events at or below it are void; a batch that raises it empties the table first.
   */
  private record Truncation(Dataset<Row> watermark, Dataset<Row> storedWatermark, boolean isNew, Dataset<Row> marker) {
    private static final String AT = "__sluice_truncated_at";

    static Truncation of(SparkSession session, CdcStateStore store, Dataset<Row> incoming, boolean enabled) {
      if (!enabled) {
        return new Truncation(null, null, false, null);
      }
      Dataset<Row> stored = store.read(session).where(col(OP).equalTo(lit(TRUNCATE)));
      Dataset<Row> batch = incoming.where(col(OP).equalTo(lit(TRUNCATE)));
      Row seen = stored.select(col(SEQ), lit(false).as("b")).unionByName(batch.select(col(SEQ), lit(true).as("b")))
          .agg(max(when(col("b"), col(SEQ))).as("batch"), max(when(not(col("b")), col(SEQ))).as("stored"))
          .select(col("batch").isNotNull().and(col("stored").isNull().or(col("batch").gt(col("stored")))))
          .first();
      boolean isNew = !seen.isNullAt(0) && seen.getBoolean(0);
      Dataset<Row> watermark = stored.select(col(SEQ)).unionByName(batch.select(col(SEQ))).agg(max(col(SEQ)).as(AT));
      return new Truncation(watermark, stored.agg(max(col(SEQ)).as(AT)), isNew,
          isNew ? batch.agg(max(col(SEQ)).as(SEQ)) : null);
    }

    /** The events still in force: those after the watermark. */
    Dataset<Row> after(Dataset<Row> combined) {
      return after(combined, watermark);
    }

    /** The events that were in force before the batch: those after the stored watermark. */
    Dataset<Row> beforeBatch(Dataset<Row> stored) {
      return after(stored, storedWatermark);
    }

    private static Dataset<Row> after(Dataset<Row> events, Dataset<Row> watermark) {
      if (watermark == null) {
        return events;
      }
      return events.crossJoin(watermark).where(col(AT).isNull().or(col(SEQ).gt(col(AT)))).drop(AT);
    }

    /** The store's rows to keep, plus the new watermark's own row when this batch raised it. */
    Dataset<Row> withMarker(Dataset<Row> kept) {
      if (!isNew) {
        return kept;
      }
      List<Column> row = new ArrayList<>();
      for (StructField field : kept.schema().fields()) {
        if (field.name().equals(SEQ)) {
          row.add(col(SEQ));
        } else if (field.name().equals(OP)) {
          row.add(lit(TRUNCATE).as(OP));
        } else if (field.name().equals(RECORDED_AT)) {
          row.add(current_timestamp().as(RECORDED_AT));
        } else {
          row.add(lit(null).cast(field.dataType()).as(field.name()));
        }
      }
      return kept.unionByName(marker.select(row.toArray(Column[]::new)));
    }
  }
}
