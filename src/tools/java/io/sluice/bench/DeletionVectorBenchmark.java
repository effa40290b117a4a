package io.sluice.bench;

import static io.sluice.bench.BenchSupport.median;
import static io.sluice.bench.BenchSupport.time;
import static org.apache.spark.sql.functions.col;

import io.sluice.delta.KeyedCommit;
import io.sluice.execution.SmallFiles;
import io.sluice.graph.DatasetName;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import scala.Option;
import scala.Tuple2;

/**
 * What many small keyed batches leave in a table: each one marks a few rows of the files it
 * touches in deletion vectors and appends a small file. It writes {@code batches} batches of
 * {@code keys} random keys each (every row of those keys goes, a new row per key comes) with
 * {@link KeyedCommit}, the writer of every keyed kind, then times a full scan of the table (every
 * column of every row) against the same rows written afresh and optimized, before and after
 * the maintenance Sluice runs ({@code OPTIMIZE}) and after {@code REORG TABLE ... APPLY (PURGE)}.
 * After each batch, the small files are compacted when an update would compact them ({@link SmallFiles}).
 * It also prints how the batch's own time moved from the first batches to the last.
 */
public final class DeletionVectorBenchmark {
  private static final String DATABASE = "bench_dv";
  private static final String TARGET = DATABASE + ".target";
  private static final String FRESH = DATABASE + ".fresh";
  /** The files the target starts with, as a pipeline's first load of that many rows writes them. */
  private static final int FILES = 8;
  /** Each table's scan is timed this many times, in turns with the other's; the medians are reported. */
  private static final int SCANS = 5;

  private final SparkSession spark;
  private final PrintStream out;

  public DeletionVectorBenchmark(SparkSession spark, PrintStream out) {
    this.spark = spark;
    this.out = out;
  }

  /** Loads {@code rows} rows, runs the batches, then prints the scans' times and the table's files. */
  public void run(long rows, int batches, int keys) {
    spark.sql("DROP DATABASE IF EXISTS " + DATABASE + " CASCADE");
    spark.sql("CREATE DATABASE " + DATABASE);
    spark.sql("CREATE TABLE " + TARGET + " (id BIGINT, name STRING, city STRING, amount DOUBLE) USING delta"
        + " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    rows(spark.range(rows).repartition(FILES), 0).write().format("delta").mode("append").saveAsTable(TARGET);
    out.printf(Locale.ROOT, "%d rows in %d files; %d batches of %d random keys each, written by the keyed commit%n",
        rows, FILES, batches, keys);
    double[] seconds = new double[batches];
    long lastJobs = 0;
    int compactions = 0;
    double compactionSeconds = 0;
    JobCounter counter = JobCounter.on(spark);
    for (int b = 0; b < batches; b++) {
      Dataset<Row> ids = spark.range(keys).selectExpr("pmod(hash(id, " + b + "), " + rows + ") AS id").distinct();
      int batch = b + 1;
      lastJobs = counter.count(() -> seconds[batch - 1] = time(() -> commit(ids, batch)));
      // Each batch stands for an update's: what the update does after its flows' batches.
      boolean[] compacted = {false};
      compactionSeconds += time(() -> compacted[0] = SmallFiles.compactIfDue(spark, new DatasetName("spark_catalog", DATABASE, "target")).isPresent());
      compactions += compacted[0] ? 1 : 0;
    }
    out.printf(Locale.ROOT, "compactions of small files after the batches (as an update does after a flow's run): %d,"
        + " %.1f s with the checks after every batch%n", compactions, compactionSeconds);
    int tail = Math.min(10, batches);
    out.printf(Locale.ROOT, "batch time: first %d median %.2f s, last %d median %.2f s; Spark jobs of the last batch %d%n",
        tail, median(Arrays.copyOfRange(seconds, 0, tail)), tail,
        median(Arrays.copyOfRange(seconds, batches - tail, batches)), lastJobs);
    // The same table properties as the target's: a table that can hold deletion vectors is read
    // with each row's index and a filter on it, whether or not a file has one.
    spark.sql("CREATE TABLE " + FRESH + " USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')"
        + " AS SELECT * FROM " + TARGET);
    spark.sql("OPTIMIZE " + FRESH);
    report("after the batches");
    spark.sql("OPTIMIZE " + TARGET);
    report("after OPTIMIZE (sluice maintain)");
    spark.sql("REORG TABLE " + TARGET + " APPLY (PURGE)");
    report("after REORG ... APPLY (PURGE)");
    long differing = spark.sql("SELECT count(*) FROM (SELECT * FROM " + TARGET + " EXCEPT ALL SELECT * FROM " + FRESH
        + ") ").first().getLong(0);
    out.printf(Locale.ROOT, "check rows that differ from the fresh copy %d %s%n", differing, differing == 0 ? "ok" : "MISMATCH");
  }

  /** One batch: the rows of {@code ids} go, one new row per id comes, in one keyed commit. */
  private void commit(Dataset<Row> ids, int batch) {
    Tuple2<DeltaLog, Snapshot> latest = latest("target");
    KeyedCommit.to(spark, latest._1(), latest._2(), "REPLACE USING")
        .removing(ids, List.of("id"), col("t.id").isNotNull())
        .appending(rows(ids, batch))
        .commit();
  }

  private Tuple2<DeltaLog, Snapshot> latest(String table) {
    return DeltaLog.forTableWithSnapshot(spark, new TableIdentifier(table, Option.apply(DATABASE)));
  }

  /** The files of {@code table}'s latest version. */
  private Dataset<Row> files(String table) {
    return latest(table)._2().allFiles().toDF();
  }

  private static Dataset<Row> rows(Dataset<?> ids, int batch) {
    return ids.selectExpr("id", "concat('name-', id, '-', " + batch + ") AS name",
        "element_at(array('Oaxaca', 'Monterrey', 'Tijuana', 'Cancun'), 1 + pmod(hash(id, " + batch + "), 4)) AS city",
        "CAST(id * 1.5 + " + batch + " AS DOUBLE) AS amount");
  }

  /** Times full scans of the target and the fresh table in turns, and prints the medians and the target's files. */
  private void report(String when) {
    double[] target = new double[SCANS];
    double[] fresh = new double[SCANS];
    for (int i = 0; i < SCANS; i++) {
      target[i] = scan(TARGET);
      fresh[i] = scan(FRESH);
    }
    Row files = files("target").selectExpr("count(*)", "count(deletionVector)",
        "coalesce(sum(deletionVector.cardinality), 0)").first();
    out.printf(Locale.ROOT, "%-34s full scan %.2f s, %.2fx the fresh table's %.2f s (%d files); %d files, %d with"
        + " deletion vectors (%d rows deleted)%n", when, median(target), median(target) / median(fresh), median(fresh),
        files("fresh").count(), files.getLong(0), files.getLong(1), files.getLong(2));
  }

  /** Seconds of a scan reading every column of every row. */
  private double scan(String table) {
    return time(() -> spark.sql("SELECT count(*), sum(hash(*)) FROM " + table).collectAsList());
  }
}
