package io.sluice.cli;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.get_json_object;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.eventlog.EventType;
import io.sluice.spec.PipelineSpec;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;

/** {@code sluice events}: the latest update's events, one line each. */
@Command(name = "events", description = "Print the event log of the latest update.")
final class EventsCommand extends FolderCommand {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    return print(eventLog(spark, spec));
  }

  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  /** While an update runs, its events so far: those committed to the log and those still spooled. */
  @Override
  int runWhileUpdating(PipelineSpec spec, SparkSession spark, String holder) {
    err().println("(reading while " + holder + " updates the pipeline)");
    return run(spec, spark);
  }

  private int print(Optional<Dataset<Row>> log) {
    if (log.isEmpty()) {
      out().println("no updates yet: run 'sluice run' first");
      return 0;
    }
    // The latest update's, not the latest event's: a `sluice maintain` beside a continuous update logs events too.
    List<Row> latest = log.get().orderBy(col("event_type").equalTo(EventType.CREATE_UPDATE.label()).desc(),
            col("timestamp").desc(), col("sequence").desc())
        .select("origin.update_id").limit(1).collectAsList();
    String updateId = latest.get(0).getString(0);
    List<Row> events = log.get().where(col("origin.update_id").equalTo(updateId))
        .orderBy("sequence")
        .select(col("timestamp"), col("level"), col("event_type"), col("origin.flow_name"), col("message"), col("error"),
            get_json_object(col("details"), "$.data_quality").as("data_quality"))
        .collectAsList();
    out().println("update " + updateId);
    for (Row event : events) {
      String time = event.getTimestamp(0).toLocalDateTime().format(TIME);
      String flow = event.isNullAt(3) ? "" : event.getString(3);
      out().printf("%s %-7s %-18s %-20s %s%n", time, event.getString(1), event.getString(2), flow, event.getString(4));
      if (!event.isNullAt(5)) {
        out().println("    error: " + event.getString(5));
      }
      if (!event.isNullAt(6)) {
        printQuality(event.getString(6));
      }
    }
    return 0;
  }

  /** A batch's data quality: each expectation's passed and failed rows, and the rows with rescued data. */
  private void printQuality(String json) {
    try {
      JsonNode quality = JSON.readTree(json);
      if (quality.path("rescued_records").asLong() > 0) {
        out().println("    rows with rescued data: " + quality.path("rescued_records").asLong());
      }
      List<String> figures = new ArrayList<>();
      for (JsonNode expectation : quality.path("expectations")) {
        figures.add(expectation.path("name").asText() + " " + expectation.path("passed_records").asLong() + " passed "
            + expectation.path("failed_records").asLong() + " failed");
      }
      if (!figures.isEmpty()) {
        out().println("    expectations: " + String.join(", ", figures));
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the event log holds data quality figures that are not JSON: " + json, e);
    }
  }
}
