package io.sluice.bench;

import static io.sluice.bench.BenchSupport.expect;
import static io.sluice.bench.BenchSupport.pipeline;
import static io.sluice.bench.BenchSupport.time;
import static io.sluice.bench.BenchSupport.update;

import io.sluice.spec.PipelineSpec;
import io.sluice.testing.PipelineTest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * What the test kit adds to an update (issue 45, decision 7): a test of {@value #UPDATES}
 * updates through {@link PipelineTest} (its rows given to a source table made for tests, each
 * update followed by two row counts) against the same updates of the same pipeline through a
 * plain update, the rows appended and counted by hand in the same session. Both start empty each
 * round (the kit in a fresh copy, the plain run in a fresh pipeline and source table). The first
 * round warms the JVM and is not counted; the order of the two alternates between rounds.
 */
public final class PipelineTestBenchmark {
  private static final int UPDATES = 3;
  private static final String COLUMNS = "id BIGINT, k BIGINT, amount DOUBLE";
  private static final String SQL = """
      CREATE STREAMING TABLE clean (CONSTRAINT positive EXPECT (amount > 0) ON VIOLATION DROP ROW)
        AS SELECT * FROM STREAM(%s);
      CREATE MATERIALIZED VIEW by_k AS SELECT k, count(*) AS n, sum(amount) AS total FROM clean GROUP BY k;
      """;
  private static final String KIT_SOURCE = "bench_kit_src.events";

  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;

  public PipelineTestBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
  }

  public void run(long rowsPerUpdate, int rounds) {
    spark.sql("CREATE DATABASE IF NOT EXISTS bench_kit_src");
    PipelineTest.createSourceTable(spark, KIT_SOURCE, COLUMNS);
    PipelineSpec kit = pipeline(spark, root, "kit", "bench_kit", SQL.formatted(KIT_SOURCE));
    out.printf(Locale.ROOT, "a test of %d updates of %d rows each (streaming table with an expectation, materialized view),"
        + " %d rounds after a warm-up; %d cores%n", UPDATES, rowsPerUpdate, rounds, Runtime.getRuntime().availableProcessors());
    List<double[]> kitRounds = new ArrayList<>();
    List<double[]> plainRounds = new ArrayList<>();
    for (int round = 0; round <= rounds; round++) {
      boolean kitFirst = round % 2 == 0;
      double[] a = kitFirst ? kitTest(kit.root(), rowsPerUpdate) : plainRun(round, rowsPerUpdate);
      double[] b = kitFirst ? plainRun(round, rowsPerUpdate) : kitTest(kit.root(), rowsPerUpdate);
      double[] kitTimes = kitFirst ? a : b;
      double[] plainTimes = kitFirst ? b : a;
      out.printf(Locale.ROOT, "%s: test %s s (start, updates, close); plain %s s (start, updates)%n",
          round == 0 ? "warm-up" : "round " + round, format(kitTimes), format(plainTimes));
      if (round > 0) {
        kitRounds.add(kitTimes);
        plainRounds.add(plainTimes);
      }
    }
    double kitUpdate = median(kitRounds, 1, UPDATES + 1);
    double plainUpdate = median(plainRounds, 1, UPDATES + 1);
    double kitTotal = median(kitRounds.stream().map(t -> Arrays.stream(t).sum()).toList());
    double plainTotal = median(plainRounds.stream().map(t -> Arrays.stream(t).sum()).toList());
    out.printf("%n%-28s %10s %10s %7s%n", "median", "test", "plain", "ratio");
    out.printf(Locale.ROOT, "%-28s %8.2f s %8.2f s %6.2fx%n", "an update (rows, update, counts)", kitUpdate, plainUpdate,
        kitUpdate / plainUpdate);
    out.printf(Locale.ROOT, "%-28s %8.2f s %8.2f s %6.2fx%n", "the whole test", kitTotal, plainTotal, kitTotal / plainTotal);
  }

  /** One test through the kit: its start, each update with its rows and checks, its close. */
  private double[] kitTest(Path folder, long n) {
    double[] times = new double[UPDATES + 2];
    PipelineTest[] test = new PipelineTest[1];
    times[0] = time(() -> test[0] = PipelineTest.of(spark, folder));
    for (int u = 1; u <= UPDATES; u++) {
      List<Map<String, Object>> rows = LongStream.range((u - 1) * n, u * n)
          .mapToObj(id -> PipelineTest.row("id", id, "k", id % 10, "amount", id % 7 == 0 ? -1.0 : 1.0 + id)).toList();
      long upTo = u * n;
      times[u] = time(() -> test[0].given(KIT_SOURCE, rows).update()
          .expectCount("clean", expectedClean(upTo)).expectCount("by_k", Math.min(10, upTo)));
    }
    times[UPDATES + 1] = time(test[0]::close);
    return times;
  }

  /** The same updates through a plain pipeline update in a fresh pipeline, its rows appended and counted by hand. */
  private double[] plainRun(int round, long n) {
    double[] times = new double[UPDATES + 1];
    String source = "bench_plain_src_" + round + ".events";
    PipelineSpec[] spec = new PipelineSpec[1];
    times[0] = time(() -> {
      spark.sql("CREATE DATABASE bench_plain_src_" + round);
      spark.sql("CREATE TABLE " + source + " (" + COLUMNS + ") USING delta");
      spec[0] = pipeline(spark, root, "plain_" + round, "bench_plain_" + round, SQL.formatted(source));
    });
    StructType schema = StructType.fromDDL(COLUMNS);
    for (int u = 1; u <= UPDATES; u++) {
      List<Row> rows = LongStream.range((u - 1) * n, u * n)
          .mapToObj(id -> RowFactory.create(id, id % 10, id % 7 == 0 ? -1.0 : 1.0 + id)).toList();
      long upTo = u * n;
      times[u] = time(() -> {
        spark.createDataFrame(rows, schema).write().insertInto(source);
        update(spark, spec[0]);
        String database = spec[0].database().orElseThrow();
        expect(out, "rows in clean", BenchSupport.count(spark, database + ".clean"), expectedClean(upTo));
        expect(out, "rows in by_k", BenchSupport.count(spark, database + ".by_k"), Math.min(10, upTo));
      });
    }
    return times;
  }

  /** Rows of ids 0 to {@code upTo} that the expectation keeps: every seventh has a negative amount. */
  private static long expectedClean(long upTo) {
    return upTo - (upTo + 6) / 7;
  }

  private static String format(double[] times) {
    StringBuilder text = new StringBuilder();
    for (double t : times) {
      text.append(text.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.2f", t));
    }
    return text.toString();
  }

  /** The median of every round's figures from index {@code from} to {@code to} (exclusive). */
  private static double median(List<double[]> rounds, int from, int to) {
    List<Double> all = new ArrayList<>();
    rounds.forEach(t -> Arrays.stream(t, from, to).forEach(all::add));
    return median(all);
  }

  private static double median(List<Double> values) {
    return BenchSupport.median(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
