package io.sluice.cli;

import static org.apache.spark.sql.functions.col;

import io.sluice.eventlog.EventLog;
import io.sluice.spec.PipelineSpec;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sluice events}: the latest update's events, one line each. */
@Command(name = "events", description = "Print the event log of the latest update.")
final class EventsCommand extends PipelineCommand {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  @Mixin PipelineDir folder;

  @Override
  Path dir() {
    return folder.dir;
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    Optional<Dataset<Row>> log = EventLog.read(spark, spec.storage());
    if (log.isEmpty()) {
      out().println("no updates yet: run 'sluice run' first");
      return 0;
    }
    List<Row> latest = log.get().orderBy(col("timestamp").desc(), col("sequence").desc())
        .select("origin.update_id").limit(1).collectAsList();
    String updateId = latest.get(0).getString(0);
    List<Row> events = log.get().where(col("origin.update_id").equalTo(updateId))
        .orderBy("sequence")
        .select("timestamp", "level", "event_type", "origin.flow_name", "message", "error")
        .collectAsList();
    out().println("update " + updateId);
    for (Row event : events) {
      String time = event.getTimestamp(0).toLocalDateTime().format(TIME);
      String flow = event.isNullAt(3) ? "" : event.getString(3);
      out().printf("%s %-7s %-18s %-20s %s%n", time, event.getString(1), event.getString(2), flow, event.getString(4));
      if (!event.isNullAt(5)) {
        out().println("    error: " + event.getString(5));
      }
    }
    return 0;
  }
}
