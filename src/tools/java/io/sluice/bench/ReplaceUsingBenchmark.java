package io.sluice.bench;

import static io.sluice.execution.DeltaWrites.append;
import static io.sluice.bench.BenchSupport.pipeline;
import static io.sluice.bench.BenchSupport.rate;
import static io.sluice.bench.BenchSupport.time;

import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Times one REPLACE USING batch through a real pipeline update against the same batch as a
 * plain Delta append (the lower bound) and as the MERGE an experienced user would write
 * (latest row per key, then update when newer, insert when new), on targets of two sizes.
 *
 * <p>Batches touch recent keys (the newest bookings change most), which is what lets a
 * keyed write prune files; one more batch touches random keys across the whole key space,
 * where neither Sluice nor the MERGE can skip a file. Times include starting the flow's stream,
 * past the batch that follows the initial load.
 */
public final class ReplaceUsingBenchmark {
  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;
  private final List<String> report = new ArrayList<>();
  /** The rows of the batch that shows what a batch costs beyond its rows. */
  private static final long SMALL_BATCH = 10;
  private final JobCounter jobs;

  public ReplaceUsingBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
    this.jobs = JobCounter.on(spark);
  }

  public void run(long targetRows, double[] fractions) {
    report.add(String.format(Locale.ROOT, "%-10s %-9s %10s %12s %12s %12s %9s %9s %11s %11s",
        "target", "batch", "rows", "append s", "merge s", "sluice s", "vs append", "vs merge", "merge jobs", "sluice jobs"));
    Target big = load("big", targetRows);
    long sequence = 2;
    for (double fraction : fractions) {
      measure(big, Math.max(1, (long) (targetRows * fraction)), sequence++, String.format(Locale.ROOT, "%.1f%%", fraction * 100),
          false);
    }
    double middle = fractions[fractions.length / 2];
    measure(big, Math.max(1, (long) (targetRows * middle)), sequence++, String.format(Locale.ROOT, "%.1f%% rand", middle * 100),
        true);
    // What a batch costs beyond its rows: ten keys.
    List<String> smallBatchJobs = measure(big, SMALL_BATCH, sequence, SMALL_BATCH + " rows", false);
    Target small = load("small", targetRows / 10);
    long sameBatch = Math.max(1, (long) (targetRows * fractions[0]));
    measure(small, sameBatch, 2, "same rows", false);
    report.forEach(out::println);
    out.println("the Spark jobs of the update with " + SMALL_BATCH + " rows, in order:");
    smallBatchJobs.forEach(job -> out.println("  " + job));
  }

  private record Target(String name, long rows, String database, PipelineSpec spec) {}

  /** A pipeline whose REPLACE USING table holds {@code rows} keys after its first update. */
  private Target load(String name, long rows) {
    String database = "bench_" + name;
    PipelineSpec spec = pipeline(spark, root, name, database, """
        CREATE STREAMING TABLE bookings
        FLOW REPLACE USING (booking_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(%s.updates);
        """.formatted(database));
    rows(0, rows, 1).writeTo(database + ".updates").using("delta").createOrReplace();
    double seconds = time(() -> PipelineUpdate.run(spark, spec, UpdateOptions.DEFAULT, List.of()));
    // Until a stream's batch after its source's initial snapshot, each restart lists that
    // snapshot again (see "How an update runs" in docs/operations.md): one batch of a key no
    // timed batch touches comes first, so the timed batches show what a running feed costs.
    append(rows(10 * rows, 1, 1), database + ".updates");
    PipelineUpdate.run(spark, spec, UpdateOptions.DEFAULT, List.of());
    spark.sql("OPTIMIZE " + database + ".bookings");
    out.printf(Locale.ROOT, "loaded %s target: %d rows in %.1f s%n", name, rows, seconds);
    return new Target(name, rows, database, spec);
  }

  /**
   * Times one batch of about {@code batchRows} rows: with recent keys, half of them the newest
   * existing bookings and half new ones (the newest bookings are the ones that change); with
   * random keys, existing keys spread over the whole key space, where no file can be skipped.
   */
  /** @return the descriptions of the Spark jobs of Sluice's update */
  private List<String> measure(Target target, long batchRows, long sequence, String label, boolean randomKeys) {
    long slice = Math.max(1, target.rows() / batchRows);
    Dataset<Row> batch = randomKeys
        ? rows(spark.range(batchRows).selectExpr("id * " + slice + " + pmod(hash(id, " + sequence + "), " + slice
            + ") AS booking_id"), sequence)
        : rows(target.rows() - 2 * batchRows, batchRows, sequence).where("pmod(booking_id, 2) = 0")
            .unionByName(rows(target.rows() - batchRows / 2, batchRows / 2 + 1, sequence));
    String staged = target.database() + ".batch";
    batch.writeTo(staged).using("delta").createOrReplace();
    long count = spark.table(staged).count();
    String table = target.database() + ".bookings";

    clone(table, target.database() + ".append_copy");
    double append = time(() -> append(spark.table(staged), target.database() + ".append_copy"));
    clone(table, target.database() + ".merge_copy");
    double[] merge = new double[1];
    long mergeJobs = jobs.count(() -> merge[0] = time(() -> spark.sql("""
        MERGE INTO %1$s.merge_copy t
        USING (SELECT booking_id, property_id, status, total_amount, seq FROM (
                 SELECT *, row_number() OVER (PARTITION BY booking_id ORDER BY seq DESC) AS rn FROM %1$s.batch)
               WHERE rn = 1) s
        ON t.booking_id = s.booking_id
        WHEN MATCHED AND s.seq > t.seq THEN UPDATE SET *
        WHEN NOT MATCHED THEN INSERT *
        """.formatted(target.database())).collectAsList()));

    append(spark.table(staged), target.database() + ".updates");
    UpdateResult[] result = new UpdateResult[1];
    List<String> sluiceJobs = jobs.describe(() -> result[0] = PipelineUpdate.run(spark, target.spec(), UpdateOptions.DEFAULT, List.of()));
    FlowOutcome flow = result[0].flows().get(0);
    double sluice = flow.duration().toMillis() / 1000.0;
    report.add(String.format(Locale.ROOT, "%-10s %-9s %10d %12s %12s %12s %9.1fx %9.2fx %11d %11d",
        target.name() + " " + target.rows(), label, count, rate(append, count), rate(merge[0], count),
        rate(sluice, count), sluice / append, sluice / merge[0], mergeJobs, sluiceJobs.size()));
    return sluiceJobs;
  }

  /** A metadata-only copy, so the baselines write into the same files as Sluice, not into its table. */
  private void clone(String table, String copy) {
    spark.sql("DROP TABLE IF EXISTS " + copy);
    spark.sql("CREATE TABLE " + copy + " SHALLOW CLONE " + table);
  }

  private Dataset<Row> rows(long firstKey, long count, long sequence) {
    return rows(spark.range(Math.max(0, firstKey), Math.max(0, firstKey) + count).toDF("booking_id"), sequence);
  }

  /** Booking rows of sequence {@code sequence} for the {@code booking_id}s of {@code ids}. */
  private static Dataset<Row> rows(Dataset<Row> ids, long sequence) {
    return ids.selectExpr(
        "booking_id",
        "pmod(hash(booking_id, 'property'), 50000) AS property_id",
        "element_at(array('pending', 'confirmed', 'modified', 'cancelled'), 1 + pmod(hash(booking_id, " + sequence + "), 4)) AS status",
        "CAST(pmod(hash(booking_id, " + sequence + ", 'amount'), 300000) / 100.0 AS DECIMAL(10,2)) AS total_amount",
        sequence + "L AS seq");
  }
}
