package io.sluice.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pipeline's event log as read through {@code sluice query}: the updates in the order
 * they started, and their flow_progress events. Built from two named queries that go into
 * the same {@link SluiceCommands#queryAll} call as the table reads.
 */
public final class Events {
  static final String UPDATES = "SELECT origin.update_id AS update_id, unix_micros(timestamp) AS at FROM event_log "
      + "WHERE event_type = 'create_update'";
  static final String FLOW_PROGRESS = "SELECT origin.update_id AS update_id, origin.flow_name AS flow, "
      + "origin.batch_id AS batch_id, sequence, level, message, details, error FROM event_log "
      + "WHERE event_type = 'flow_progress'";
  static final String WARNINGS = "SELECT origin.update_id AS update_id, message FROM event_log WHERE level = 'WARN'";

  private final List<String> updates;
  private final List<JsonNode> progress;
  private final List<JsonNode> warnings;

  private Events(List<String> updates, List<JsonNode> progress, List<JsonNode> warnings) {
    this.updates = updates;
    this.progress = progress;
    this.warnings = warnings;
  }

  /** Adds the event-log queries to a batch of named queries. */
  public static void addQueries(Map<String, String> queries) {
    queries.put("updates", UPDATES);
    queries.put("flow_progress", FLOW_PROGRESS);
    queries.put("warnings", WARNINGS);
  }

  public static Events from(Map<String, List<JsonNode>> results) {
    List<String> updates = results.get("updates").stream()
        .sorted(Comparator.comparingLong(r -> r.get("at").asLong()))
        .map(r -> r.get("update_id").asText()).toList();
    // Events of one update can share a timestamp: their sequence orders them.
    List<JsonNode> progress = results.get("flow_progress").stream()
        .sorted(Comparator.comparingLong(r -> r.get("sequence").asLong())).toList();
    return new Events(updates, progress, results.getOrDefault("warnings", List.of()));
  }

  public int updateCount() {
    return updates.size();
  }

  /** The id of the n-th update (1-based), or of the latest with n = -1. */
  public String update(int n) {
    return n == -1 ? updates.get(updates.size() - 1) : updates.get(n - 1);
  }

  /** The states a flow went through in an update, in order of appearance. */
  public List<String> states(String updateId, String flow) {
    return events(updateId, flow).stream().filter(e -> !"METRICS".equals(e.get("level").asText()))
        .map(e -> details(e).path("state").asText(null)).filter(s -> s != null).toList();
  }

  /** The last state a flow reached in an update, if it appeared at all. */
  public Optional<String> finalState(String updateId, String flow) {
    List<String> states = states(updateId, flow);
    return states.isEmpty() ? Optional.empty() : Optional.of(states.get(states.size() - 1));
  }

  /** The METRICS events (one per batch) of a flow in an update: their details. */
  public List<JsonNode> batches(String updateId, String flow) {
    return events(updateId, flow).stream().filter(e -> "METRICS".equals(e.get("level").asText()))
        .map(Events::details).toList();
  }

  /** The sum of a numeric details field over a flow's batches in an update. */
  public long sum(String updateId, String flow, String field) {
    return batches(updateId, flow).stream().mapToLong(d -> d.path(field).asLong()).sum();
  }

  public List<String> warnings(String updateId) {
    return warnings.stream().filter(w -> updateId.equals(w.get("update_id").asText()))
        .map(w -> w.get("message").asText()).toList();
  }

  public List<JsonNode> events(String updateId, String flow) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode e : progress) {
      if (updateId.equals(e.get("update_id").asText()) && flow.equals(e.path("flow").asText())) {
        found.add(e);
      }
    }
    return found;
  }

  public static JsonNode details(JsonNode event) {
    JsonNode details = event.get("details");
    if (details == null || details.isNull()) {
      return JsonRows.JSON.createObjectNode();
    }
    try {
      return JsonRows.JSON.readTree(details.asText());
    } catch (IOException e) {
      throw new AssertionError("details is not JSON: " + details, e);
    }
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("updates " + updates + "\n");
    progress.forEach(e -> text.append(e.get("update_id").asText(), 0, 8).append(' ')
        .append(e.path("flow").asText()).append(' ').append(e.get("level").asText()).append(' ')
        .append(e.get("details").asText()).append('\n'));
    return text.toString();
  }
}
