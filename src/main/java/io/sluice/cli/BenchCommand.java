package io.sluice.cli;

import io.sluice.bench.ReplaceUsingBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice bench replace-using}: the REPLACE USING benchmark; prints a table of figures. */
@Command(name = "bench", description = "Benchmark REPLACE USING against a Delta append and a hand-written MERGE.")
final class BenchCommand implements Callable<Integer> {
  @Option(names = "--rows", defaultValue = "10000000", description = "Target rows (default ${DEFAULT-VALUE}).")
  long rows;

  @Option(names = "--dir", description = "Scratch folder (default: a new temporary folder).")
  Path dir;

  @Override
  public Integer call() throws Exception {
    Path root = dir != null ? dir : Files.createTempDirectory("sluice-bench");
    SparkSession.Builder builder = SparkSession.builder().appName("sluice bench");
    io.sluice.session.SparkSessions.embeddedDefaults(root.resolve("storage")).forEach(builder::config);
    io.sluice.session.SparkSessions.deltaSettings().forEach(builder::config);
    SparkSession spark = builder.enableHiveSupport().getOrCreate();
    try {
      new ReplaceUsingBenchmark(spark, root, System.out).run(rows, new double[] {0.001, 0.01, 0.1});
    } finally {
      spark.stop();
    }
    return 0;
  }
}
