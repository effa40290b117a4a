package io.sluice.cli;

import io.sluice.bench.BenchSupport;
import io.sluice.bench.AutoCdcBenchmark;
import io.sluice.bench.ContinuousBenchmark;
import io.sluice.bench.DeletionVectorBenchmark;
import io.sluice.bench.KafkaBenchmark;
import io.sluice.bench.MaterializedViewBenchmark;
import io.sluice.bench.ParallelFlowsBenchmark;
import io.sluice.bench.PipelineTestBenchmark;
import io.sluice.bench.ReplaceUsingBenchmark;
import io.sluice.bench.SnapshotBenchmark;
import io.sluice.session.SparkSessions;
import io.sluice.spec.Storage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice bench replace-using | auto-cdc | snapshot | kafka | parallel-flows | deletion-vectors | continuous | pipeline-test | mv}: the benchmarks; each prints a table of figures. */
@Command(name = "bench", description = "Benchmark a flow kind against what a user would write without it.",
    subcommands = {BenchCommand.ReplaceUsing.class, BenchCommand.AutoCdc.class, BenchCommand.Snapshot.class,
        BenchCommand.Kafka.class, BenchCommand.ParallelFlows.class, BenchCommand.DeletionVectors.class, BenchCommand.Continuous.class,
        BenchCommand.PipelineTest.class, BenchCommand.MaterializedViews.class})
public final class BenchCommand implements Callable<Integer>, ToolCommand {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "name a benchmark: replace-using, auto-cdc, snapshot, kafka, parallel-flows, deletion-vectors, continuous, pipeline-test or mv");
  }

  /**
   * What every benchmark takes: its size, its scratch folder, and an embedded Spark there; or,
   * under spark-submit, the cluster's Spark, catalog and storage.
   */
  abstract static class Benchmark implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "10000000", description = "Target rows (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--dir", description = "Scratch folder (default: a new temporary folder).")
    Path dir;

    @Option(names = "--storage", paramLabel = "URI",
        description = "Where the scratch pipelines keep their storage, e.g. s3a://bucket/bench (default: in the scratch folder).")
    String storage;

    @Spec CommandSpec spec;

    abstract void run(SparkSession spark, Path root);

    /** {@code --rows} when it is not given: the benchmarks of small updates take fewer. */
    long defaultRows() {
      return 10_000_000;
    }

    /** Refuses {@code rows} this benchmark cannot take. */
    void checkRows() {}

    @Override
    public Integer call() throws Exception {
      if (!spec.commandLine().getParseResult().hasMatchedOption("--rows")) {
        rows = defaultRows();
      }
      checkRows();
      Path root = dir != null ? dir : Files.createTempDirectory("sluice-bench");
      SparkSession.Builder builder = SparkSession.builder().appName("sluice bench");
      if (!SparkSessions.submitted()) {
        SparkSessions.embeddedDefaults(Storage.local(root.resolve("storage"))).forEach(builder::config);
      }
      SparkSessions.sessionSettings().forEach(builder::config);
      if (storage != null) {
        builder.config(BenchSupport.STORAGE, storage);
      }
      SparkSession spark = builder.enableHiveSupport().getOrCreate();
      try {
        run(spark, root);
      } finally {
        spark.stop();
      }
      return 0;
    }
  }

  @Command(name = "replace-using", description = "REPLACE USING batches of 0.1%%, 1%% and 10%% of the target (recent keys), and 1%% at random keys.")
  static final class ReplaceUsing extends Benchmark {
    @Override
    void run(SparkSession spark, Path root) {
      new ReplaceUsingBenchmark(spark, root, System.out).run(rows, new double[] {0.001, 0.01, 0.1});
    }
  }

  @Command(name = "auto-cdc", description = "AUTO CDC (SCD 1 and 2): the initial load, then a batch of 1%% of the keys.")
  static final class AutoCdc extends Benchmark {
    @Override
    void run(SparkSession spark, Path root) {
      new AutoCdcBenchmark(spark, root, System.out).run(rows);
    }
  }

  @Command(name = "snapshot",
      description = "AUTO CDC FROM SNAPSHOT (SCD 1 and 2): the initial load, then a snapshot with 1%% of the rows changed.")
  static final class Snapshot extends Benchmark {
    @Override
    void run(SparkSession spark, Path root) {
      new SnapshotBenchmark(spark, root, System.out).run(rows);
    }
  }

  @Command(name = "kafka",
      description = "Kafka to Delta through a streaming table, against Spark's own Kafka stream to Delta (a broker must run).")
  static final class Kafka extends Benchmark {
    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092",
        description = "The broker (default ${DEFAULT-VALUE}: bin/sluice-kafka start).")
    String servers;

    @Override
    void run(SparkSession spark, Path root) {
      new KafkaBenchmark(spark, root, System.out, servers).run(rows);
    }
  }

  @Command(name = "parallel-flows",
      description = "Independent branches updated one flow at a time, and with 2 and 4 flows at once (pipelines.maxParallelFlows).")
  static final class ParallelFlows extends Benchmark {
    @Option(names = "--branches", defaultValue = "6", description = "Independent branches (default ${DEFAULT-VALUE}).")
    int branches;

    @Override
    void run(SparkSession spark, Path root) {
      new ParallelFlowsBenchmark(spark, root, System.out).run(rows, branches);
    }
  }

  @Command(name = "deletion-vectors",
      description = "Many small keyed batches, then a full scan against the same rows freshly optimized, before and after maintenance.")
  static final class DeletionVectors extends Benchmark {
    @Option(names = "--batches", defaultValue = "1000", description = "Keyed batches (default ${DEFAULT-VALUE}).")
    int batches;

    @Option(names = "--keys", defaultValue = "10", description = "Random keys per batch (default ${DEFAULT-VALUE}).")
    int keys;

    @Override
    void run(SparkSession spark, Path root) {
      new DeletionVectorBenchmark(spark, System.out).run(rows, batches, keys);
    }
  }

  @Command(name = "continuous",
      description = "A continuous update (append, materialized view, AUTO CDC; 1-second triggers): how long a landed file takes to reach each table.")
  static final class Continuous extends Benchmark {
    /** The first landing's rows: the other benchmarks' default is too many for one file. */
    @Override
    long defaultRows() {
      return 100_000;
    }

    @Override
    void checkRows() {
      if (rows < 50 || rows > 1_000_000) {
        throw new ParameterException(spec.commandLine(), "bench continuous lands its first rows as one JSON file and"
            + " updates 50 keys per landing: give --rows from 50 to 1000000 (e.g. --rows 100000)");
      }
    }

    @Override
    void run(SparkSession spark, Path root) {
      new ContinuousBenchmark(spark, root, System.out).run(rows);
    }
  }

  @Command(name = "pipeline-test",
      description = "A pipeline test's updates through the test kit against the same updates through a plain update;"
          + " --rows is the rows of each update (default 100).")
  static final class PipelineTest extends Benchmark {
    @Option(names = "--rounds", defaultValue = "4", description = "Rounds after the warm-up (default ${DEFAULT-VALUE}).")
    int rounds;

    /** Rows per update: a test gives a few rows, not the other benchmarks' millions. */
    @Override
    long defaultRows() {
      return 100;
    }

    @Override
    void run(SparkSession spark, Path root) {
      new PipelineTestBenchmark(spark, root, System.out).run(rows, rounds);
    }
  }

  @Command(name = "mv",
      description = "Materialized views refreshed after appends of 0.01%%, 0.1%%, 1%% and 50%% of their input and a delete of 0.1%%, against the same views with REFRESH POLICY FULL.")
  static final class MaterializedViews extends Benchmark {
    @Override
    void run(SparkSession spark, Path root) {
      new MaterializedViewBenchmark(spark, root, System.out).run(rows, new double[] {0.0001, 0.001, 0.01, 0.5});
    }
  }
}
