package io.sluice.bench;


import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecLoader;
import io.sluice.update.FlowOutcome;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** What the benchmarks share: scratch pipelines, updates, timing, rates, appends, copies and checks. */
public final class BenchSupport {
  /** The session setting that puts the scratch pipelines' storage elsewhere than their folder (a bucket). */
  public static final String STORAGE = "spark.sluice.bench.storage";

  private BenchSupport() {}

  /**
   * A scratch pipeline {@code name} under {@code root} whose one library is {@code sql}, writing
   * to {@code database} (dropped and created again, empty).
   */
  static PipelineSpec pipeline(SparkSession spark, Path root, String name, String database, String sql) {
    Path dir = root.resolve(name);
    String storage = spark.conf().getOption(STORAGE).map(base -> base + "/storage-" + name)
        .getOrElse(() -> root.resolve("storage-" + name).toString());
    write(dir.resolve("spark-pipeline.yml"), "name: " + database + "\nstorage: " + storage
        + "\ndatabase: " + database + "\nlibraries:\n  - glob: {include: '*.sql'}\n");
    write(dir.resolve("pipeline.sql"), sql);
    spark.sql("DROP DATABASE IF EXISTS " + database + " CASCADE");
    spark.sql("CREATE DATABASE " + database);
    return SpecLoader.load(dir);
  }

  /**
   * Runs the flows of an update one at a time ({@code pipelines.maxParallelFlows} 1): a flow
   * is timed against a hand-written statement that has the machine to itself, so it must too.
   */
  static void oneFlowAtATime(SparkSession spark) {
    spark.conf().set("pipelines.maxParallelFlows", "1");
  }

  /** One pipeline update; a failed one stops the benchmark. */
  static UpdateResult update(SparkSession spark, PipelineSpec spec) {
    UpdateResult result = PipelineUpdate.run(spark, spec, UpdateOptions.DEFAULT, List.of());
    if (!result.succeeded()) {
      throw new IllegalStateException("the benchmark's update failed: " + result.flows());
    }
    return result;
  }

  /**
   * Builds the SCD 1 and SCD 2 targets ({@code scd1}, {@code scd2}) of a freshly written
   * source of {@code n} {@code unit} with one update, and prints how long each step took,
   * against a CTAS of the same rows ({@code rowsQuery}): what a user without Sluice runs first,
   * timed the second time it runs. Then the update's Spark jobs, in order, each with its time.
   */
  static void initialLoad(PrintStream out, SparkSession spark, JobCounter jobs, PipelineSpec spec, String unit, long n,
      Runnable writeSource, String rowsQuery) {
    double written = time(writeSource);
    Runnable ctasCopy = () -> spark.sql("CREATE OR REPLACE TABLE " + spec.database().orElseThrow() + ".ctas_copy USING delta AS "
        + rowsQuery);
    // Once untimed: the first statement of a JVM runs mostly interpreted, which would flatter the update that follows.
    ctasCopy.run();
    double ctas = time(ctasCopy);
    UpdateResult[] result = new UpdateResult[1];
    double[] total = new double[1];
    List<String> loadJobs = jobs.describe(() -> total[0] = time(() -> result[0] = update(spark, spec)));
    FlowOutcome scd1 = flow(result[0], "scd1");
    FlowOutcome scd2 = flow(result[0], "scd2");
    out.printf(Locale.ROOT, "initial load of %d %s: source written in %.1f s, CTAS of its rows %.1f s; update %.1f s:"
        + " SCD 1 flow %s (%.2fx the CTAS), SCD 2 flow %s (%.2fx)%n", n, unit, written, ctas, total[0],
        rate(seconds(scd1), n), seconds(scd1) / ctas, rate(seconds(scd2), n), seconds(scd2) / ctas);
    out.println("the Spark jobs of the initial load, in order, each with its time:");
    loadJobs.forEach(job -> out.println("  " + job));
  }

  /** The outcome of the flow into {@code dataset}. */
  static FlowOutcome flow(UpdateResult result, String dataset) {
    return result.flows().stream().filter(f -> f.dataset().equals(dataset)).findFirst().orElseThrow();
  }

  /** A flow's duration in seconds. */
  static double seconds(FlowOutcome flow) {
    return flow.duration().toMillis() / 1000.0;
  }

  /** Wall-clock seconds {@code work} takes. */
  static double time(Runnable work) {
    long start = System.nanoTime();
    work.run();
    return (System.nanoTime() - start) / 1e9;
  }

  /** The median of {@code values}: the mean of the middle two when their number is even. */
  static double median(double... values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /** Seconds and rows per second, e.g. {@code 1.2 (83k/s)} or {@code 9.2 (217/s)}: small batches make small rates. */
  static String rate(double seconds, long rows) {
    double perSecond = rows / seconds;
    return perSecond >= 10_000
        ? String.format(Locale.ROOT, "%.1f (%.0fk/s)", seconds, perSecond / 1000)
        : String.format(Locale.ROOT, "%.1f (%.0f/s)", seconds, perSecond);
  }


  /** A plain Delta table with {@code table}'s rows (and deletion vectors, like Sluice's keyed targets), so baselines pay for the same kind of writes. */
  static void copy(SparkSession spark, String table, String copy) {
    spark.sql("CREATE OR REPLACE TABLE " + copy + " USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')"
        + " AS SELECT * FROM " + table);
  }

  /** {@code SELECT count(*) FROM} the table, with any filter that follows its name. */
  static long count(SparkSession spark, String tableAndFilter) {
    return spark.sql("SELECT count(*) FROM " + tableAndFilter).first().getLong(0);
  }

  /** Prints one check: the figure, and ok or what was expected. */
  static void expect(PrintStream out, String what, long actual, long expected) {
    out.printf(Locale.ROOT, "check %-60s %10d %s%n", what, actual,
        actual == expected ? "ok" : "MISMATCH: expected " + expected);
  }

  static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
