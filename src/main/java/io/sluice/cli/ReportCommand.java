package io.sluice.cli;

import io.sluice.eventlog.UpdateHistory;
import io.sluice.report.HtmlReport;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.PipelineUpdate;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice report}: one HTML file with the graph, the recent updates and the latest update's flows. */
@Command(name = "report", description = "Write an HTML report of the pipeline: its graph, recent updates, flows and expectations.")
final class ReportCommand extends FolderCommand {
  /** How many updates the report charts. */
  static final int RECENT_UPDATES = 20;

  @Option(names = "--out", paramLabel = "FILE", description = "Where to write it (default: report.html under the pipeline's storage).")
  Path outFile;

  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    List<UpdateHistory.UpdateRecord> updates = UpdateHistory.recent(eventLog(spark, spec), RECENT_UPDATES);
    Path file = outFile != null ? outFile : spec.storage().localFolder().resolve("report.html");
    GraphCommand.write(file, HtmlReport.write(GraphCommand.view(spark, spec, PipelineUpdate.validate(spark, spec), updates), updates, Instant.now()));
    out().println("wrote " + file.toAbsolutePath().normalize() + " (open it in a browser; it needs no network)");
    return 0;
  }
}
