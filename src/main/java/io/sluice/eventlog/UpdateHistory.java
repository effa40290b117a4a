package io.sluice.eventlog;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The recent updates of a pipeline, read back from its event log: each update's state and
 * time, and per flow its state, batches, rows, the flow kind's counts and its expectations.
 * What {@code sluice graph} and {@code sluice report} show.
 */
public final class UpdateHistory {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Batch event details that are not the flow kind's own counts. */
  private static final Set<String> NOT_KIND_METRICS = Set.of("batch_id", "num_input_rows", "num_output_rows", "data_quality");

  private UpdateHistory() {}

  /** One expectation's rows over an update's batches. */
  public record ExpectationFigures(long passed, long failed) {}

  /**
   * What one flow did in one update; {@code error} is why it failed, if it did; {@code planned} how
   * it planned its last round (a materialized view's refresh technique and why), if it said.
   */
  public record FlowRecord(
      String flow, String dataset, String state, int batches, long rowsWritten, long rowsRescued, Duration duration,
      Map<String, Long> kindMetrics, Map<String, ExpectationFigures> expectations, Optional<String> error,
      Optional<String> planned) {}

  /**
   * One update: when it started, how long it took, how it ended (and why, if it failed before
   * its flows ran), and its flows in the order they ran.
   */
  public record UpdateRecord(
      String updateId, Instant start, Duration duration, String state, Optional<String> error, List<FlowRecord> flows) {
    public Optional<FlowRecord> flowInto(String dataset) {
      return flows.stream().filter(f -> f.dataset().equals(dataset)).findFirst();
    }
  }

  /**
   * The latest {@code limit} updates of an event log ({@link EventLog#read}, or {@link
   * EventLog#readWhileRunning} beside a running update), oldest first; none when the pipeline has
   * not run.
   */
  public static List<UpdateRecord> recent(Optional<Dataset<Row>> log, int limit) {
    if (log.isEmpty()) {
      return List.of();
    }
    Dataset<Row> events = log.get().select(col("origin.update_id").as("update_id"), col("origin.flow_name").as("flow"),
        col("origin.dataset_name").as("dataset"), col("timestamp"), col("sequence"), col("event_type"), col("details"),
        col("error"), col("message"));
    Dataset<Row> latest = events.groupBy("update_id").agg(max("timestamp").as("last"))
        .orderBy(col("last").desc()).limit(limit).select("update_id");
    List<Row> rows = events.join(latest, "update_id").orderBy("timestamp", "sequence").collectAsList();
    Map<String, UpdateBuilder> updates = new LinkedHashMap<>();
    for (Row row : rows) {
      updates.computeIfAbsent(row.getString(0), UpdateBuilder::new).add(row);
    }
    return updates.values().stream().map(UpdateBuilder::build).toList();
  }

  private static JsonNode details(String json) {
    try {
      return json == null ? JSON.createObjectNode() : JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an event's details are not JSON: " + json, e);
    }
  }

  /** Folds one update's events, in order, into its record. */
  private static final class UpdateBuilder {
    private final String updateId;
    private Instant start;
    private Instant end;
    private String state = "RUNNING";
    private Optional<String> error = Optional.empty();
    private final Map<String, FlowBuilder> flows = new LinkedHashMap<>();

    UpdateBuilder(String updateId) {
      this.updateId = updateId;
    }

    void add(Row event) {
      Instant at = event.getTimestamp(3).toInstant();
      start = start == null ? at : start;
      end = at;
      JsonNode details = details(event.getString(6));
      String type = event.getString(5);
      Optional<String> failure = Optional.ofNullable(event.getString(7));
      if (type.equals(EventType.UPDATE_PROGRESS.label()) && details.has("state")) {
        state = details.get("state").asText();
        error = failure.or(() -> error);
      } else if (type.equals(EventType.FLOW_PROGRESS.label()) && !event.isNullAt(1)) {
        flows.computeIfAbsent(event.getString(1), name -> new FlowBuilder(name, event.isNullAt(2) ? name : event.getString(2)))
            .add(at, details, failure);
      } else if (type.equals(EventType.PLANNING_INFORMATION.label()) && !event.isNullAt(1)) {
        String message = event.getString(8);
        // The message names its flow first ("flow 'totals': refresh: ..."), which the record need not repeat.
        flows.computeIfAbsent(event.getString(1), name -> new FlowBuilder(name, event.isNullAt(2) ? name : event.getString(2)))
            .planned = Optional.of(message.substring(message.indexOf("': ") + 3));
      }
    }

    UpdateRecord build() {
      return new UpdateRecord(updateId, start, Duration.between(start, end), state, error,
          flows.values().stream().map(FlowBuilder::build).toList());
    }
  }

  private static final class FlowBuilder {
    private final String flow;
    private final String dataset;
    private String state = "QUEUED";
    private Instant started;
    private Instant ended;
    private int batches;
    private long rows;
    private long rescued;
    private Optional<String> error = Optional.empty();
    private Optional<String> planned = Optional.empty();
    private final Map<String, Long> kind = new LinkedHashMap<>();
    private final Map<String, ExpectationFigures> expectations = new LinkedHashMap<>();

    FlowBuilder(String flow, String dataset) {
      this.flow = flow;
      this.dataset = dataset;
    }

    void add(Instant at, JsonNode details, Optional<String> failure) {
      error = failure.or(() -> error);
      if (details.has("state")) {
        state = details.get("state").asText();
        if (state.equals(FlowState.STARTING.name()) || (state.equals(FlowState.RUNNING.name()) && started == null)) {
          started = at;
        }
        if (FlowState.valueOf(state).isFinal()) {
          ended = at;
        }
      }
      if (details.has("batch_id")) {
        batches++;
        rows += details.path("num_output_rows").asLong();
        JsonNode quality = details.path("data_quality");
        rescued += quality.path("rescued_records").asLong();
        for (JsonNode e : quality.path("expectations")) {
          expectations.merge(e.path("name").asText(),
              new ExpectationFigures(e.path("passed_records").asLong(), e.path("failed_records").asLong()),
              (a, b) -> new ExpectationFigures(a.passed() + b.passed(), a.failed() + b.failed()));
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = details.fields(); fields.hasNext(); ) {
          Map.Entry<String, JsonNode> field = fields.next();
          if (!NOT_KIND_METRICS.contains(field.getKey()) && field.getValue().isNumber()) {
            kind.merge(field.getKey(), field.getValue().asLong(), Long::sum);
          }
        }
      }
    }

    FlowRecord build() {
      Duration took = started == null || ended == null ? Duration.ZERO : Duration.between(started, ended);
      return new FlowRecord(flow, dataset, state, batches, rows, rescued, took,
          Collections.unmodifiableMap(kind), Collections.unmodifiableMap(expectations), error, planned);
    }
  }
}
