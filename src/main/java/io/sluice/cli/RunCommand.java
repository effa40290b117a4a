package io.sluice.cli;

import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice run}: one triggered update. */
@Command(name = "run", description = "Run one triggered update of the pipeline.")
final class RunCommand extends FolderCommand {
  @Option(names = "--full-refresh-all", description = "Clear every table (except those with pipelines.reset.allowed = false) and reprocess all input.")
  boolean fullRefreshAll;

  @Option(names = "--full-refresh", split = ",", paramLabel = "TABLE", description = "Clear these tables and reprocess all their input.")
  List<String> fullRefresh = new ArrayList<>();

  @Option(names = "--refresh", split = ",", paramLabel = "TABLE", description = "Update only these tables.")
  List<String> refresh = new ArrayList<>();

  @Option(names = "--progress-every", paramLabel = "SECONDS", defaultValue = "10",
      description = "Seconds between the progress lines of a flow that runs long (default ${DEFAULT-VALUE}).")
  double progressSeconds;

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    UpdateOptions options = new UpdateOptions(fullRefreshAll, fullRefresh, refresh);
    Duration tick = Duration.ofMillis(Math.max(100, Math.round(progressSeconds * 1000)));
    UpdateResult result;
    try (ConsoleReporter reporter = new ConsoleReporter(out(), spark.sparkContext(), tick)) {
      result = PipelineUpdate.run(spark, spec, options, List.of(reporter));
      reporter.printSummary(spec.name(), result);
    }
    if (result.succeeded()) {
      return 0;
    }
    for (FlowOutcome outcome : result.flows()) {
      outcome.failure().ifPresent(e -> fail(e, "flow '" + outcome.flow() + "' failed: " + outcome.errorMessage().orElse("")));
    }
    return FAILED;
  }
}
