package io.sluice.bench;

import static io.sluice.bench.BenchSupport.expect;
import static io.sluice.bench.BenchSupport.pipeline;
import static io.sluice.bench.BenchSupport.time;
import static io.sluice.bench.BenchSupport.update;

import io.sluice.spec.PipelineSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * What running independent flows at once gives (SEMANTICS §10.2): a pipeline of {@code
 * branches} independent branches, each a streaming table over its own JSON files and a
 * materialized view over it, updated with {@code pipelines.maxParallelFlows} 1 (one flow at a
 * time, the alternative), 2 and 4: a first update of every file, then one of a new file per
 * branch. After a warm-up run (not counted: a fresh JVM runs its first update mostly
 * interpreted), each limit runs twice, in the order 1, 2, 4, 4, 2, 1, so none always meets a
 * warmer JVM; "speed" is the time at limit 1 over the time at that limit.
 */
public final class ParallelFlowsBenchmark {
  private static final String SETTING = "pipelines.maxParallelFlows";
  private static final int[] ORDER = {0, 1, 2, 4, 4, 2, 1};
  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;

  public ParallelFlowsBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
  }

  public void run(long rows, int branches) {
    long perBranch = Math.max(4, rows / branches);
    long more = Math.max(1, perBranch / 100);
    double written = time(() -> {
      for (int file = 0; file < 4; file++) {
        lines(root.resolve("template").resolve("initial-" + file + ".json"), file * perBranch / 4, (file + 1) * perBranch / 4);
      }
      lines(root.resolve("template-more").resolve("more.json"), perBranch, perBranch + more);
    });
    out.printf(Locale.ROOT, "%d branches (streaming table + materialized view each), %d rows each in 4 JSON files"
        + " (written in %.1f s), then %d more in one; %d cores, Spark %s%n", branches, perBranch, written, more,
        Runtime.getRuntime().availableProcessors(), spark.conf().get("spark.master"));
    Map<Integer, double[]> first = new LinkedHashMap<>();
    Map<Integer, double[]> next = new LinkedHashMap<>();
    for (int i = 0; i < ORDER.length; i++) {
      int limit = Math.max(1, ORDER[i]);
      Path landing = root.resolve("landing-" + i);
      String sql = IntStream.range(0, branches).mapToObj(b -> """
          CREATE STREAMING TABLE src_%1$d AS SELECT * FROM STREAM read_files('%2$s', format => 'json',
            schema => 'id BIGINT, k BIGINT, v DOUBLE');
          CREATE MATERIALIZED VIEW agg_%1$d AS SELECT k, count(*) AS n, sum(v) AS total FROM src_%1$d GROUP BY k;
          """.formatted(b, landing.resolve("b" + b))).collect(Collectors.joining("\n"));
      IntStream.range(0, branches).forEach(b -> copy(root.resolve("template"), landing.resolve("b" + b)));
      String database = "bench_parallel_" + i;
      PipelineSpec spec = pipeline(spark, root, "parallel_" + i, database, sql);
      spark.conf().set(SETTING, String.valueOf(limit));
      double firstUpdate = time(() -> update(spark, spec));
      IntStream.range(0, branches).forEach(b -> copy(root.resolve("template-more"), landing.resolve("b" + b)));
      double nextUpdate = time(() -> update(spark, spec));
      spark.conf().unset(SETTING);
      String last = database + ".src_" + (branches - 1);
      expect(out, "rows in " + last, BenchSupport.count(spark, last), perBranch + more);
      out.printf(Locale.ROOT, "%s, at most %d flows at once: first update %.1f s, next (a new file per branch) %.1f s%n",
          i == 0 ? "warm-up" : "run " + i, limit, firstUpdate, nextUpdate);
      if (i > 0) {
        first.computeIfAbsent(limit, l -> new double[2])[i <= ORDER.length / 2 ? 0 : 1] = firstUpdate;
        next.computeIfAbsent(limit, l -> new double[2])[i <= ORDER.length / 2 ? 0 : 1] = nextUpdate;
      }
    }
    double firstAlone = mean(first.get(1));
    double nextAlone = mean(next.get(1));
    out.printf("%n%-16s %14s %7s %14s %7s%n", "flows at once", "first update", "speed", "next update", "speed");
    for (int limit : List.of(1, 2, 4)) {
      out.printf(Locale.ROOT, "%-16d %12.1f s %6.2fx %12.1f s %6.2fx%n", limit, mean(first.get(limit)),
          firstAlone / mean(first.get(limit)), mean(next.get(limit)), nextAlone / mean(next.get(limit)));
    }
  }

  /** A JSON Lines file of the rows with ids {@code from} to {@code to} (exclusive). */
  private static void lines(Path file, long from, long to) {
    StringBuilder text = new StringBuilder();
    for (long id = from; id < to; id++) {
      text.append("{\"id\":").append(id).append(",\"k\":").append(id % 1000).append(",\"v\":").append(id % 97 / 7.0).append("}\n");
    }
    BenchSupport.write(file, text.toString());
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.list(from)) {
      Files.createDirectories(to);
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double mean(double[] values) {
    return (values[0] + values[1]) / 2;
  }
}
