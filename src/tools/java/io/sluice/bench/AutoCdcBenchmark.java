package io.sluice.bench;

import static io.sluice.execution.DeltaWrites.append;
import static io.sluice.bench.BenchSupport.copy;
import static io.sluice.bench.BenchSupport.count;
import static io.sluice.bench.BenchSupport.expect;
import static io.sluice.bench.BenchSupport.flow;
import static io.sluice.bench.BenchSupport.initialLoad;
import static io.sluice.bench.BenchSupport.median;
import static io.sluice.bench.BenchSupport.rate;
import static io.sluice.bench.BenchSupport.seconds;
import static io.sluice.bench.BenchSupport.time;
import static io.sluice.bench.BenchSupport.update;

import io.sluice.graph.AutoCdcColumns;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Times AUTO CDC flows (SCD type 1 and 2, SEMANTICS §4) through real pipeline updates: the
 * initial load of a target of N keys (against a CTAS of the same rows), the two updates
 * that follow it (nothing new, then 10 events), then one batch of change events to 1% of
 * the keys plus 0.1% new keys, against the same batch as a plain
 * Delta append (the lower bound) and as the MERGEs an experienced user writes (no protection
 * against late events), on copies of the targets: for SCD type 1 the latest-event upsert, for
 * SCD type 2 the staged-union MERGE of Delta's documentation. It then checks the results
 * against what the batch should have done, and times the fixed cost of an update: one with
 * nothing new, one with 10 events (against the hand-written MERGEs of those 10).
 *
 * <p>It runs twice, once per {@link KeyShape}: keys at random over the whole key space, where
 * no file can be skipped, and the newest keys, where key ranges can skip files. Sluice's times
 * are its flows' durations, stream start included.
 */
public final class AutoCdcBenchmark {
  /** The sequence of every loaded row; the batch's events come after it, or before when late. */
  static final long LOADED_SEQ = 100;
  static final long NEW_SEQ = 200;
  static final long LATE_SEQ = 50;
  /** The sequence of the small batch that follows the load: after the loaded one, before the timed batch's. */
  static final long AFTER_LOAD_SEQ = LOADED_SEQ + 1;
  /** The events of a small batch, to keys 0 to 9. */
  private static final long SMALL_BATCH = 10;
  /** Rounds of a small batch timed against the hand MERGEs. */
  private static final int SMALL_ROUNDS = 5;
  private static final String DATABASE = "bench_cdc";
  private static final String SOURCE = DATABASE + ".changes";
  private static final String BATCH = DATABASE + ".batch";
  private static final String SCD1 = DATABASE + ".scd1";
  private static final String SCD2 = DATABASE + ".scd2";
  private static final String APPEND_COPY = DATABASE + ".append_copy";
  private static final String MERGE_COPY = DATABASE + ".merge_copy";
  private static final String SCD2_MERGE_COPY = DATABASE + ".scd2_merge_copy";

  /** Which keys a batch changes. */
  enum KeyShape {
    /** Keys at random over the whole key space: every file may hold one. */
    RANDOM,
    /** The newest keys, as in a bookings feed: their files are the last ones written. */
    RECENT
  }

  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;
  private final JobCounter jobs;

  public AutoCdcBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
    this.jobs = JobCounter.on(spark);
    BenchSupport.oneFlowAtATime(spark);
  }

  /** For each key shape: loads {@code keys} keys, applies one batch four ways, prints the figures and the checks. */
  public void run(long keys) {
    for (KeyShape shape : KeyShape.values()) {
      out.println("== " + shape.name().toLowerCase(Locale.ROOT) + " keys");
      run(keys, shape);
    }
  }

  private void run(long keys, KeyShape shape) {
    PipelineSpec spec = pipeline(shape);
    load(spec, keys);
    afterTheLoad(spec);
    long batchRows = Math.max(1, keys / 100);
    long newKeys = Math.max(1, keys / 1000);
    stage(keys, batchRows, newKeys, shape);
    copy(spark, SCD1, APPEND_COPY);
    copy(spark, SCD1, MERGE_COPY);
    copy(spark, SCD2, SCD2_MERGE_COPY);
    double append = time(() -> append(spark.table(BATCH).select("id", "name", "city"), APPEND_COPY));
    double[] merge = new double[2];
    long mergeJobs = jobs.count(() -> merge[0] = time(this::handMerge));
    long scd2MergeJobs = jobs.count(() -> merge[1] = time(this::handScd2Merge));
    append(spark.table(BATCH), SOURCE);
    UpdateResult[] update = new UpdateResult[1];
    long updateJobs = jobs.count(() -> update[0] = update(spark, spec));
    report(keys, batchRows + newKeys, append, merge, flow(update[0], "scd1"), flow(update[0], "scd2"));
    out.printf(Locale.ROOT, "Spark jobs: hand MERGE %d, hand SCD 2 MERGE %d; Sluice update %d for its two flows' one"
        + " batch each%n", mergeJobs, scd2MergeJobs, updateJobs);
    check(keys, newKeys, flow(update[0], "scd1"));
    fixedCost(spec);
  }

  /**
   * The updates that follow an initial load: one with nothing new, then one whose flows get
   * 10 events each (updates of keys 0-9 at {@link #AFTER_LOAD_SEQ}). Both cost more than
   * later ones: when a stream restarts, Spark plans its last batch again, and while that is
   * the initial snapshot of the source, Delta lists the snapshot's files again to do so. Later
   * batches are timed after these, so they show what a running feed costs.
   */
  private void afterTheLoad(PipelineSpec spec) {
    UpdateResult[] update = new UpdateResult[1];
    double[] idle = new double[1];
    long idleJobs = jobs.count(() -> idle[0] = time(() -> update[0] = update(spark, spec)));
    append(events(spark.range(SMALL_BATCH).selectExpr("id", "'UPDATE' AS op", AFTER_LOAD_SEQ + "L AS seq")), SOURCE);
    double[] small = new double[1];
    long smallJobs = jobs.count(() -> small[0] = time(() -> update[0] = update(spark, spec)));
    out.printf(Locale.ROOT, "after the initial load: an update with nothing new %.1f s (%d Spark jobs); with 10 new"
        + " events %.1f s (%d jobs): SCD 1 flow %.1f s, SCD 2 flow %.1f s%n", idle[0], idleJobs, small[0], smallJobs,
        seconds(flow(update[0], "scd1")), seconds(flow(update[0], "scd2")));
  }

  /**
   * What an update costs beyond its rows, once its flows run past the source's initial
   * snapshot: one with nothing new, then {@value #SMALL_ROUNDS} rounds of 10 events to each flow
   * (keys 0-9, a newer sequence each round) against the hand-written MERGEs of the same 10
   * events, with their Spark jobs. The update and the MERGEs take turns going first, so that
   * neither always meets a warmer JVM; the figures are the rounds' medians.
   */
  private void fixedCost(PipelineSpec spec) {
    UpdateResult[] update = new UpdateResult[1];
    double[] idle = new double[1];
    long idleJobs = jobs.count(() -> idle[0] = time(() -> update[0] = update(spark, spec)));
    out.printf(Locale.ROOT, "fixed cost: an update with nothing new %.1f s (%d Spark jobs)%n", idle[0], idleJobs);
    double[][] times = new double[4][SMALL_ROUNDS];
    long[] jobCounts = new long[3];
    List<String> smallJobs = List.of();
    for (int round = 0; round < SMALL_ROUNDS; round++) {
      events(spark.range(SMALL_BATCH).selectExpr("id", "'UPDATE' AS op", (NEW_SEQ + 1 + round) + "L AS seq"))
          .writeTo(BATCH).using("delta").createOrReplace();
      int r = round;
      Runnable merges = () -> {
        jobCounts[0] = jobs.count(() -> times[0][r] = time(this::handMerge));
        jobCounts[1] = jobs.count(() -> times[1][r] = time(this::handScd2Merge));
      };
      if (round % 2 == 0) {
        merges.run();
      }
      append(spark.table(BATCH), SOURCE);
      smallJobs = jobs.describe(() -> update[0] = update(spark, spec));
      jobCounts[2] = smallJobs.size();
      times[2][r] = seconds(flow(update[0], "scd1"));
      times[3][r] = seconds(flow(update[0], "scd2"));
      if (round % 2 == 1) {
        merges.run();
      }
      out.printf(Locale.ROOT, "10 events, round %d (%s first): SCD 1 flow %.2f s, hand MERGE %.2f s; SCD 2 flow %.2f s,"
          + " hand SCD 2 MERGE %.2f s%n", round + 1, round % 2 == 0 ? "MERGEs" : "update", times[2][r], times[0][r],
          times[3][r], times[1][r]);
    }
    double scd1 = median(times[2]);
    double scd2 = median(times[3]);
    out.printf(Locale.ROOT, "10 events, median of %d rounds: SCD 1 flow %.2f s = %.2fx the hand MERGE (%.2f s, %d jobs"
        + " in the last round); SCD 2 flow %.2f s = %.2fx the hand SCD 2 MERGE (%.2f s, %d jobs); the last round's update"
        + " %d jobs for both flows%n",
        SMALL_ROUNDS, scd1, scd1 / median(times[0]), median(times[0]), jobCounts[0], scd2, scd2 / median(times[1]),
        median(times[1]), jobCounts[1], jobCounts[2]);
    out.println("the Spark jobs of the last update with 10 new events, in order:");
    smallJobs.forEach(job -> out.println("  " + job));
  }

  /** Two AUTO CDC targets of the same change feed, one per SCD type, in a scratch pipeline of its own per key shape. */
  private PipelineSpec pipeline(KeyShape shape) {
    String name = "auto-cdc-" + shape.name().toLowerCase(Locale.ROOT);
    return BenchSupport.pipeline(spark, root, name, DATABASE, """
        CREATE STREAMING TABLE scd1;
        CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM STREAM(%1$s) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        CREATE STREAMING TABLE scd2;
        CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(%1$s) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq)
          STORED AS SCD TYPE 2;
        """.formatted(SOURCE));
  }

  /** The source gets one insert per key, and a first update builds both targets from it. */
  private void load(PipelineSpec spec, long keys) {
    Dataset<Row> inserts = spark.range(keys).selectExpr("id", "'INSERT' AS op", LOADED_SEQ + "L AS seq");
    initialLoad(out, spark, jobs, spec, "keys", keys, () -> events(inserts).writeTo(SOURCE).using("delta").createOrReplace(),
        "SELECT id, name, city FROM " + SOURCE);
  }

  /**
   * The batch, staged as its own Delta table so every contender reads the same files: one
   * event for each of {@code batchRows} distinct existing keys, about 10% deletes and,
   * independently, 5% late (sequence {@link #LATE_SEQ}, below the loaded one), then one
   * insert for each of {@code newKeys} keys past the loaded ones. Random keys are taken one at
   * random in each of {@code batchRows} equal slices of the key space; recent keys are the last
   * {@code batchRows} loaded.
   */
  private void stage(long keys, long batchRows, long newKeys, KeyShape shape) {
    long slice = keys / batchRows;
    String id = shape == KeyShape.RANDOM ? "id * " + slice + " + pmod(hash(id, 'key'), " + slice + ")"
        : (keys - batchRows) + " + id";
    Dataset<Row> changes = spark.range(batchRows).selectExpr(
            id + " AS id",
            "CASE WHEN pmod(hash(id, 'op'), 10) = 0 THEN 'DELETE' ELSE 'UPDATE' END AS op",
            "CASE WHEN pmod(hash(id, 'late'), 20) = 0 THEN " + LATE_SEQ + "L ELSE " + NEW_SEQ + "L END AS seq");
    Dataset<Row> inserts = spark.range(keys, keys + newKeys).selectExpr("id", "'INSERT' AS op", NEW_SEQ + "L AS seq");
    events(changes.unionByName(inserts)).writeTo(BATCH).using("delta").createOrReplace();
  }

  /** Rows of the source's shape; a delete carries no values, an upsert values that differ per sequence. */
  private static Dataset<Row> events(Dataset<Row> idOpSeq) {
    return idOpSeq.selectExpr(
        "id",
        "CASE WHEN op != 'DELETE' THEN concat('name-', id, '-', seq) END AS name",
        "CASE WHEN op != 'DELETE' THEN element_at(array('Oaxaca', 'Monterrey', 'Tijuana', 'Cancun', 'Puebla',"
            + " 'Merida', 'Leon', 'Toluca'), 1 + pmod(hash(id, seq), 8)) END AS city",
        "op",
        "seq");
  }

  /** The SCD 1 MERGE an experienced user writes: latest event per key, then delete, update or insert. */
  private void handMerge() {
    spark.sql("""
        MERGE INTO %s t
        USING (SELECT id, name, city, op FROM (
                 SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq DESC) AS rn FROM %s)
               WHERE rn = 1) s
        ON t.id = s.id
        WHEN MATCHED AND s.op = 'DELETE' THEN DELETE
        WHEN MATCHED THEN UPDATE SET *
        WHEN NOT MATCHED AND s.op != 'DELETE' THEN INSERT *
        """.formatted(MERGE_COPY, BATCH)).collectAsList();
  }

  /**
   * The SCD 2 MERGE of Delta's documentation: each changed key's row twice, once to close its
   * current version (matched on the key) and once, with a NULL key, to insert the new one.
   */
  private void handScd2Merge() {
    spark.sql("""
        WITH latest AS (
          SELECT id, name, city, op, seq FROM (
            SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq DESC) AS rn FROM %2$s) WHERE rn = 1)
        MERGE INTO %1$s t
        USING (
          SELECT id AS merge_key, * FROM latest
          UNION ALL
          SELECT NULL AS merge_key, l.* FROM latest l JOIN %1$s c ON l.id = c.id
          WHERE c.%4$s IS NULL AND l.op != 'DELETE' AND NOT (l.name <=> c.name AND l.city <=> c.city)) s
        ON t.id = s.merge_key AND t.%4$s IS NULL
        WHEN MATCHED AND (s.op = 'DELETE' OR NOT (t.name <=> s.name AND t.city <=> s.city))
          THEN UPDATE SET %4$s = s.seq
        WHEN NOT MATCHED AND s.op != 'DELETE'
          THEN INSERT (id, name, city, %3$s, %4$s) VALUES (s.id, s.name, s.city, s.seq, NULL)
        """.formatted(SCD2_MERGE_COPY, BATCH, AutoCdcColumns.START_AT, AutoCdcColumns.END_AT)).collectAsList();
  }

  private void report(long keys, long batchRows, double append, double[] merge, FlowOutcome scd1, FlowOutcome scd2) {
    double sluice1 = seconds(scd1);
    double sluice2 = seconds(scd2);
    out.printf(Locale.ROOT, "%-10s %-8s %14s %14s %14s %14s %14s %11s %11s %12s %11s%n", "target", "batch", "append s",
        "hand MERGE s", "SCD2 MERGE s", "SCD 1 s", "SCD 2 s", "SCD1/append", "SCD1/MERGE", "SCD2/append", "SCD2/MERGE");
    out.printf(Locale.ROOT, "%-10d %-8d %14s %14s %14s %14s %14s %10.1fx %10.2fx %11.1fx %10.2fx%n", keys, batchRows,
        rate(append, batchRows), rate(merge[0], batchRows), rate(merge[1], batchRows), rate(sluice1, batchRows),
        rate(sluice2, batchRows), sluice1 / append, sluice1 / merge[0], sluice2 / append, sluice2 / merge[1]);
    out.println("SCD 1 flow: " + scd1.kindMetrics());
    out.println("SCD 2 flow: " + scd2.kindMetrics());
  }

  /**
   * What the batch should have done, from its own counts: Sluice ignores late events (the
   * key's loaded sequence is higher), the hand MERGE applies them. So the two SCD 1 tables
   * differ by the late deletes (rows only Sluice keeps) and the late updates (values only
   * the MERGE overwrote); SCD 2 gets a new version per upsert, in order or late, and so do
   * the hand SCD 2 MERGE's, which closes a version for a late delete too. New keys are inserts.
   */
  private void check(long keys, long newKeys, FlowOutcome scd1Flow) {
    Row batch = spark.sql("""
        SELECT count_if(op = 'DELETE' AND seq > %1$d), count_if(op = 'DELETE' AND seq < %1$d),
               count_if(op = 'UPDATE' AND seq > %1$d), count_if(op = 'UPDATE' AND seq < %1$d) FROM %2$s
        """.formatted(LOADED_SEQ, BATCH)).first();
    long deletes = batch.getLong(0);
    long lateDeletes = batch.getLong(1);
    long updates = batch.getLong(2);
    long lateUpdates = batch.getLong(3);
    out.printf(Locale.ROOT, "batch: %d deletes + %d late deletes, %d updates + %d late updates, %d new keys%n",
        deletes, lateDeletes, updates, lateUpdates, newKeys);
    expect(out, "SCD 1 rows", count(spark, SCD1), keys - deletes + newKeys);
    expect(out, "hand MERGE rows", count(spark, MERGE_COPY), keys - deletes - lateDeletes + newKeys);
    expect(out, "rows whose values differ (late updates the MERGE applied)", differingRows(), lateUpdates);
    expect(out, "SCD 1 ignored events", scd1Flow.kindMetrics().getOrDefault("num_ignored_events", -1L),
        lateDeletes + lateUpdates);
    String open = " WHERE " + AutoCdcColumns.END_AT + " IS NULL";
    expect(out, "SCD 2 open versions", count(spark, SCD2 + open), keys - deletes + newKeys);
    // The small batch after the load gave each of its keys a version of its own.
    expect(out, "SCD 2 versions", count(spark, SCD2), keys + updates + lateUpdates + newKeys + SMALL_BATCH);
    expect(out, "hand SCD 2 MERGE open versions", count(spark, SCD2_MERGE_COPY + open),
        keys - deletes - lateDeletes + newKeys);
    expect(out, "hand SCD 2 MERGE versions", count(spark, SCD2_MERGE_COPY),
        keys + updates + lateUpdates + newKeys + SMALL_BATCH);
  }

  private long differingRows() {
    return spark.sql("SELECT count(*) FROM %s m JOIN %s s USING (id) WHERE NOT (m.name <=> s.name AND m.city <=> s.city)"
        .formatted(MERGE_COPY, SCD1)).first().getLong(0);
  }
}
