package io.sluice.bench;

import static io.sluice.bench.BenchSupport.copy;
import static io.sluice.bench.BenchSupport.count;
import static io.sluice.bench.BenchSupport.expect;
import static io.sluice.bench.BenchSupport.flow;
import static io.sluice.bench.BenchSupport.initialLoad;
import static io.sluice.bench.BenchSupport.pipeline;
import static io.sluice.bench.BenchSupport.rate;
import static io.sluice.bench.BenchSupport.seconds;
import static io.sluice.bench.BenchSupport.time;
import static io.sluice.bench.BenchSupport.update;
import static io.sluice.execution.DeltaWrites.overwrite;

import io.sluice.graph.AutoCdcColumns;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Times AUTO CDC FROM SNAPSHOT flows (SCD type 1 and 2, SEMANTICS §5) through real pipeline
 * updates: the initial load of a source table of N rows, then one update after 1% of the
 * source's rows changed (about 80% updates, 10% deletes, 10% inserts), against the two ways
 * a user without the flow applies a new snapshot to (a copy of) the SCD 1 target: a full
 * overwrite with it, and one MERGE of it that updates, inserts and deletes ({@code WHEN NOT
 * MATCHED BY SOURCE THEN DELETE}). Besides the times it reports what each wrote, from the Delta history of the
 * commits it made, and checks that the targets equal the new snapshot.
 *
 * <p>The changed keys are random across the whole key space, so no file of the target is
 * free of changes; the flows still read the whole snapshot and the whole target to diff
 * them. Sluice's times are its flows' durations.
 */
public final class SnapshotBenchmark {
  private static final String DATABASE = "bench_snapshot";
  private static final String SOURCE = DATABASE + ".customers";
  private static final String CHANGES = DATABASE + ".changes";
  private static final String SCD1 = DATABASE + ".scd1";
  private static final String SCD2 = DATABASE + ".scd2";
  private static final String OVERWRITE_COPY = DATABASE + ".overwrite_copy";
  private static final String MERGE_COPY = DATABASE + ".merge_copy";
  private static final String COLUMNS = "id, name, city, amount";

  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;
  private final JobCounter jobs;

  public SnapshotBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
    this.jobs = JobCounter.on(spark);
    BenchSupport.oneFlowAtATime(spark);
  }

  /** What the staged changes hold, by kind. */
  private record Changes(long updates, long deletes, long inserts) {
    long total() {
      return updates + deletes + inserts;
    }
  }

  /** What the commits made on a table since a version wrote, summed from their operationMetrics. */
  private record Writes(String operations, long files, long bytes, long rowsCopied, long deletionVectors,
      long filesRemoved) {}

  /** Loads {@code rows} rows, changes 1% of them, applies the new snapshot two ways, prints the figures and the checks. */
  public void run(long rows) {
    PipelineSpec spec = pipeline(spark, root, "snapshot", DATABASE, """
        CREATE STREAMING TABLE scd1;
        CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM SNAPSHOT %1$s KEYS (id);
        CREATE STREAMING TABLE scd2;
        CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM SNAPSHOT %1$s KEYS (id) STORED AS SCD TYPE 2;
        """.formatted(SOURCE));
    load(spec, rows);
    Changes changes = stage(rows, Math.max(1, rows / 100));
    copy(spark, SCD1, OVERWRITE_COPY);
    copy(spark, SCD1, MERGE_COPY);
    double changed = time(this::applyToSource);
    long snapshotRows = count(spark, SOURCE);
    out.printf(Locale.ROOT, "source changed in %.1f s: %d updates, %d deletes, %d inserts; new snapshot %d rows%n",
        changed, changes.updates(), changes.deletes(), changes.inserts(), snapshotRows);
    long overwriteFrom = version(OVERWRITE_COPY);
    long mergeFrom = version(MERGE_COPY);
    long scd1From = version(SCD1);
    long scd2From = version(SCD2);
    double[] overwrite = new double[1];
    long overwriteJobs = jobs.count(() -> overwrite[0] = time(() -> overwrite(spark.table(SOURCE), OVERWRITE_COPY)));
    double[] merge = new double[1];
    long mergeJobs = jobs.count(() -> merge[0] = time(this::mergeByHand));
    UpdateResult[] update = new UpdateResult[1];
    long updateJobs = jobs.count(() -> update[0] = update(spark, spec));
    FlowOutcome scd1 = flow(update[0], "scd1");
    FlowOutcome scd2 = flow(update[0], "scd2");
    report(snapshotRows, changes, overwrite[0], merge[0], scd1, scd2, Map.of("overwrite", writes(OVERWRITE_COPY,
        overwriteFrom), "hand MERGE", writes(MERGE_COPY, mergeFrom), "SCD 1", writes(SCD1, scd1From), "SCD 2",
        writes(SCD2, scd2From)));
    out.printf(Locale.ROOT, "Spark jobs: overwrite %d; hand MERGE %d; Sluice update %d for its two flows' one snapshot"
        + " each%n", overwriteJobs, mergeJobs, updateJobs);
    check(rows, snapshotRows, changes, scd1, scd2);
    fixedCost(spec);
  }

  /**
   * What an update costs beyond the rows that changed: one with the source unchanged (neither
   * flow reads it), then one whose new snapshot differs in 10 rows.
   */
  private void fixedCost(PipelineSpec spec) {
    UpdateResult[] update = new UpdateResult[1];
    double[] idle = new double[1];
    long idleJobs = jobs.count(() -> idle[0] = time(() -> update[0] = update(spark, spec)));
    out.printf(Locale.ROOT, "update with the source unchanged: %.1f s (%d Spark jobs); batches: SCD 1 %d, SCD 2 %d%n",
        idle[0], idleJobs, flow(update[0], "scd1").batches(), flow(update[0], "scd2").batches());
    spark.sql("UPDATE " + SOURCE + " SET name = concat(name, '+') WHERE id < 10").collectAsList();
    double[] small = new double[1];
    long smallJobs = jobs.count(() -> small[0] = time(() -> update[0] = update(spark, spec)));
    out.printf(Locale.ROOT, "update whose snapshot changed 10 rows: %.1f s (%d jobs): SCD 1 flow %.1f s, SCD 2 flow %.1f s%n",
        small[0], smallJobs, seconds(flow(update[0], "scd1")), seconds(flow(update[0], "scd2")));
    expect(out, "SCD 1 rows updated by the 10-row change", flow(update[0], "scd1").kindMetrics().get("target_rows_updated"),
        10);
  }

  /** The source gets {@code rows} rows, and a first update builds both targets from it. */
  private void load(PipelineSpec spec, long rows) {
    initialLoad(out, spark, jobs, spec, "rows", rows,
        () -> values(spark.range(rows).toDF("id"), 1).writeTo(SOURCE).using("delta").createOrReplace(),
        "SELECT * FROM " + SOURCE);
  }

  /**
   * The changes, staged as a Delta table of (id, op): change {@code i} hits a random key of the
   * i-th of {@code count} equal slices of the key space (so keys are distinct and spread);
   * about 10% delete it, 10% insert a new key past the key space instead, the rest update it.
   */
  private Changes stage(long rows, long count) {
    long slice = Math.max(1, rows / count);
    spark.range(count).selectExpr(
            "CASE WHEN pmod(hash(id, 'op'), 10) = 1 THEN " + rows + " + id"
                + " ELSE id * " + slice + " + pmod(hash(id, 'key'), " + slice + ") END AS id",
            "CASE pmod(hash(id, 'op'), 10) WHEN 0 THEN 'DELETE' WHEN 1 THEN 'INSERT' ELSE 'UPDATE' END AS op")
        .writeTo(CHANGES).using("delta").createOrReplace();
    Row counts = spark.sql("SELECT count_if(op = 'UPDATE'), count_if(op = 'DELETE'), count_if(op = 'INSERT') FROM "
        + CHANGES).first();
    return new Changes(counts.getLong(0), counts.getLong(1), counts.getLong(2));
  }

  /** The source's rows of version 2: each changed value differs from version 1 (the name always does). */
  private void applyToSource() {
    values(spark.table(CHANGES).select("id", "op"), 2).createOrReplaceTempView("bench_snapshot_changes");
    spark.sql("""
        MERGE INTO %s t USING bench_snapshot_changes s ON t.id = s.id
        WHEN MATCHED AND s.op = 'DELETE' THEN DELETE
        WHEN MATCHED AND s.op = 'UPDATE' THEN UPDATE SET name = s.name, city = s.city, amount = s.amount
        WHEN NOT MATCHED AND s.op = 'INSERT' THEN INSERT (%s) VALUES (s.id, s.name, s.city, s.amount)
        """.formatted(SOURCE, COLUMNS)).collectAsList();
  }

  /**
   * What a user writes by hand to bring a copy of the SCD 1 target to the new snapshot: one
   * MERGE that updates the rows whose values differ, inserts the new keys and deletes the
   * keys the snapshot lacks.
   */
  private void mergeByHand() {
    spark.sql("""
        MERGE INTO %s t USING %s s ON t.id = s.id
        WHEN MATCHED AND (t.name IS DISTINCT FROM s.name OR t.city IS DISTINCT FROM s.city
            OR t.amount IS DISTINCT FROM s.amount) THEN UPDATE SET *
        WHEN NOT MATCHED THEN INSERT *
        WHEN NOT MATCHED BY SOURCE THEN DELETE
        """.formatted(MERGE_COPY, SOURCE)).collectAsList();
  }

  /** Rows of the source's shape for the ids (and any other columns) of {@code ids}, with values of {@code version}. */
  private static Dataset<Row> values(Dataset<Row> ids, int version) {
    List<String> select = new ArrayList<>(List.of(ids.columns()));
    select.add("concat('name-', id, '-', " + version + ") AS name");
    select.add("element_at(array('Oaxaca', 'Monterrey', 'Tijuana', 'Cancun', 'Puebla', 'Merida', 'Leon', 'Toluca'),"
        + " 1 + pmod(hash(id, " + version + "), 8)) AS city");
    select.add("CAST(pmod(hash(id, " + version + ", 'amount'), 1000000) / 100.0 AS DECIMAL(10,2)) AS amount");
    return ids.selectExpr(select.toArray(String[]::new));
  }

  private long version(String table) {
    return spark.sql("DESCRIBE HISTORY " + table + " LIMIT 1").first().getLong(0);
  }

  /** What the commits on {@code table} after version {@code from} wrote (MERGE and WRITE name their metrics differently). */
  private Writes writes(String table, long from) {
    List<Row> commits = spark.sql("DESCRIBE HISTORY " + table).where("version > " + from)
        .select("operation", "operationMetrics").collectAsList();
    TreeSet<String> operations = new TreeSet<>();
    long files = 0;
    long bytes = 0;
    long copied = 0;
    long vectors = 0;
    long removed = 0;
    for (Row commit : commits) {
      operations.add(commit.getString(0));
      Map<String, String> metrics = commit.getJavaMap(1);
      files += metric(metrics, "numTargetFilesAdded", "numAddedFiles", "numFiles");
      bytes += metric(metrics, "numTargetBytesAdded", "numAddedBytes", "numOutputBytes");
      copied += metric(metrics, "numTargetRowsCopied");
      vectors += metric(metrics, "numTargetDeletionVectorsAdded", "numDeletionVectorsAdded");
      removed += metric(metrics, "numTargetFilesRemoved", "numRemovedFiles");
    }
    return new Writes(commits.size() + " " + String.join("+", operations), files, bytes, copied, vectors, removed);
  }

  /** The first of {@code names} the metrics have, or 0. */
  private static long metric(Map<String, String> metrics, String... names) {
    for (String name : names) {
      if (metrics.containsKey(name)) {
        return Long.parseLong(metrics.get(name));
      }
    }
    return 0;
  }

  private void report(long snapshotRows, Changes changes, double overwrite, double merge, FlowOutcome scd1,
      FlowOutcome scd2, Map<String, Writes> writes) {
    double sluice1 = seconds(scd1);
    double sluice2 = seconds(scd2);
    out.printf(Locale.ROOT, "%-10s %-8s %16s %16s %16s %16s %13s %13s %13s%n", "snapshot", "changed", "overwrite s",
        "hand MERGE s", "SCD 1 s", "SCD 2 s", "SCD1/MERGE", "SCD1/overw.", "SCD2/overw.");
    out.printf(Locale.ROOT, "%-10d %-8d %16s %16s %16s %16s %12.2fx %12.2fx %12.2fx%n", snapshotRows, changes.total(),
        rate(overwrite, snapshotRows), rate(merge, snapshotRows), rate(sluice1, snapshotRows),
        rate(sluice2, snapshotRows), sluice1 / merge, sluice1 / overwrite, sluice2 / overwrite);
    out.printf(Locale.ROOT, "%-10s %-12s %11s %14s %12s %10s %14s %12s%n", "writer", "commits", "files added",
        "bytes added", "rows copied", "DVs added", "files removed", "bytes/overw.");
    long overwriteBytes = writes.get("overwrite").bytes();
    for (String writer : List.of("overwrite", "hand MERGE", "SCD 1", "SCD 2")) {
      Writes w = writes.get(writer);
      out.printf(Locale.ROOT, "%-10s %-12s %11d %14d %12d %10d %14d %11.3fx%n", writer, w.operations(),
          w.files(), w.bytes(), w.rowsCopied(), w.deletionVectors(), w.filesRemoved(),
          (double) w.bytes() / overwriteBytes);
    }
    out.println("SCD 1 flow: " + scd1.kindMetrics());
    out.println("SCD 2 flow: " + scd2.kindMetrics());
  }

  /**
   * The targets against the new snapshot: the SCD 1 target (and the overwritten copy) equal it,
   * as multisets both ways; the SCD 2 target's open versions equal it, and it holds one closed
   * version per update or delete and one new version per update or insert. The flows' own
   * counts match the staged changes.
   */
  private void check(long rows, long snapshotRows, Changes changes, FlowOutcome scd1, FlowOutcome scd2) {
    String open = "(SELECT * FROM " + SCD2 + " WHERE " + AutoCdcColumns.END_AT + " IS NULL)";
    expect(out, "snapshot rows", snapshotRows, rows - changes.deletes() + changes.inserts());
    expect(out, "SCD 1 rows", count(spark, SCD1), snapshotRows);
    expect(out, "SCD 1 rows not in the snapshot (EXCEPT ALL)", exceptAll(SCD1, SOURCE), 0);
    expect(out, "snapshot rows not in SCD 1 (EXCEPT ALL)", exceptAll(SOURCE, SCD1), 0);
    expect(out, "overwrite rows not in the snapshot (EXCEPT ALL)", exceptAll(OVERWRITE_COPY, SOURCE), 0);
    expect(out, "snapshot rows not in the overwrite (EXCEPT ALL)", exceptAll(SOURCE, OVERWRITE_COPY), 0);
    expect(out, "hand MERGE rows not in the snapshot (EXCEPT ALL)", exceptAll(MERGE_COPY, SOURCE), 0);
    expect(out, "snapshot rows not in the hand MERGE (EXCEPT ALL)", exceptAll(SOURCE, MERGE_COPY), 0);
    expect(out, "SCD 1 rows inserted", metric(scd1, "target_rows_inserted"), changes.inserts());
    expect(out, "SCD 1 rows updated", metric(scd1, "target_rows_updated"), changes.updates());
    expect(out, "SCD 1 rows deleted", metric(scd1, "target_rows_deleted"), changes.deletes());
    expect(out, "SCD 2 open versions", count(spark, open), snapshotRows);
    expect(out, "SCD 2 open versions not in the snapshot (EXCEPT ALL)", exceptAll(open, SOURCE), 0);
    expect(out, "snapshot rows not in SCD 2's open versions (EXCEPT ALL)", exceptAll(SOURCE, open), 0);
    expect(out, "SCD 2 versions", count(spark, SCD2), rows + changes.updates() + changes.inserts());
    expect(out, "SCD 2 versions opened (rows inserted)", metric(scd2, "target_rows_inserted"),
        changes.updates() + changes.inserts());
    expect(out, "SCD 2 versions closed (rows updated)", metric(scd2, "target_rows_updated"),
        changes.updates() + changes.deletes());
  }

  private long exceptAll(String table, String other) {
    return spark.sql("SELECT count(*) FROM (SELECT %3$s FROM %1$s EXCEPT ALL SELECT %3$s FROM %2$s)"
        .formatted(table, other, COLUMNS)).first().getLong(0);
  }

  private static long metric(FlowOutcome flow, String name) {
    return flow.kindMetrics().getOrDefault(name, -1L);
  }
}
