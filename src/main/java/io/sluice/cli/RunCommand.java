package io.sluice.cli;

import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.cli.ConsoleReporter.StatusLine;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.StopSignal;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice run}: one triggered update, or with {@code --continuous} one that runs until stopped. */
@Command(name = "run", description = "Run one triggered update of the pipeline, or with --continuous keep it running.")
final class RunCommand extends FolderCommand {
  @Option(names = "--full-refresh-all", description = "Clear every table (except those with pipelines.reset.allowed = false) and reprocess all input.")
  boolean fullRefreshAll;

  @Option(names = "--full-refresh", split = ",", paramLabel = "TABLE", description = "Clear these tables and reprocess all their input.")
  List<String> fullRefresh = new ArrayList<>();

  @Option(names = "--refresh", split = ",", paramLabel = "TABLE", description = "Update only these tables.")
  List<String> refresh = new ArrayList<>();

  @Option(names = "--continuous", description = "Keep running: each flow takes new input every trigger interval"
      + " (pipelines.trigger.interval, default 5 seconds) until Ctrl-C or SIGTERM stops the update.")
  boolean continuous;

  @Option(names = "--progress-every", paramLabel = "SECONDS", defaultValue = "10",
      description = "Seconds between the progress lines of a flow that runs long (default ${DEFAULT-VALUE}).")
  double progressSeconds;

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    UpdateOptions triggered = new UpdateOptions(fullRefreshAll, fullRefresh, refresh);
    UpdateOptions options = continuous ? triggered.continuously() : triggered;
    Duration tick = Duration.ofMillis(Math.max(100, Math.round(progressSeconds * 1000)));
    StatusLine status = !continuous ? StatusLine.NONE : System.console() != null ? StatusLine.REDRAWN : StatusLine.LINES;
    StopSignal stop = new StopSignal();
    UpdateResult result;
    try (ConsoleReporter reporter = new ConsoleReporter(out(), spark.sparkContext(), tick, status);
        StopOnSignals signals = continuous ? new StopOnSignals(stop, err()) : null) {
      result = PipelineUpdate.run(spark, spec, options, stop, List.of(reporter));
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
