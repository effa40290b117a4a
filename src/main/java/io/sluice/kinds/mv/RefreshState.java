package io.sluice.kinds.mv;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.common.SparkErrors;
import io.sluice.execution.CommitTag;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.delta.DeltaLog;

/**
 * What a view's last refresh saw: its number, the fingerprint of the view's definition, and the
 * version of each input it read. Kept in the user metadata of the refresh's own Delta commit to
 * the view, so that the rows and the state that says where they stand commit together: a refresh
 * killed before its commit left both as they were, and the next one starts from the same versions.
 *
 * @param inputs each input's version, by location ({@link DeltaInput#key})
 * @param stateBehind where the view's group state stands when it is behind the rows: a merge of
 *     appends alone updates the rows from their own values, and the state follows at the next
 *     refresh that needs it ({@link MergedGroups})
 */
record RefreshState(long refresh, String definition, Map<String, Long> inputs, Optional<StateBehind> stateBehind) {
  static final String FIELD = "view_refresh";
  private static final ObjectMapper JSON = new ObjectMapper();

  RefreshState {
    inputs = Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
  }

  /**
   * The group state as an earlier refresh left it.
   *
   * @param refresh the refresh that last wrote the state
   * @param inputs the versions of the inputs it read
   * @param appendedBytes the bytes the inputs appended since, which the view's rows took in and the state has not
   * @param since when the first refresh that left the state behind planned (epoch milliseconds)
   */
  record StateBehind(long refresh, Map<String, Long> inputs, long appendedBytes, long since) {
    StateBehind {
      inputs = Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
    }
  }

  /** The refresh that last wrote the group state: this one, or the one the state is behind at. */
  long stateRefresh() {
    return stateBehind.map(StateBehind::refresh).orElse(refresh);
  }

  /** Where the group state stands after this refresh: this refresh's (as of {@code now}), or the one it is behind at. */
  StateBehind state(long now) {
    return stateBehind.orElseGet(() -> new StateBehind(refresh, inputs, 0, now));
  }

  JsonNode json() {
    ObjectNode node = JSON.createObjectNode().put("refresh", refresh).put("definition", definition);
    versions(node.putObject("inputs"), inputs);
    stateBehind.ifPresent(behind -> versions(node.putObject("state").put("refresh", behind.refresh())
        .put("appended_bytes", behind.appendedBytes()).put("since", behind.since()).putObject("inputs"), behind.inputs()));
    return node;
  }

  private static void versions(ObjectNode node, Map<String, Long> inputs) {
    inputs.forEach(node::put);
  }

  /** The state of the view's last refresh, or why there is none to start from. */
  record Previous(Optional<RefreshState> state, Optional<IncrementalizationIssue> whyNone) {}

  /**
   * Reads the state from the view's latest commit carrying one; commits after it that only
   * rearrange the view's files (OPTIMIZE) are passed over, any other commit means the view was
   * changed outside its refreshes.
   */
  static Previous read(DeltaLog view, long version) {
    try {
      return lookBack(view, version);
    } catch (RuntimeException e) {
      return none(IncrementalizationIssue.NO_PREVIOUS_REFRESH, "the view's log cannot be read back to its last refresh ("
          + SparkErrors.firstLine(e) + ")");
    }
  }

  private static Previous lookBack(DeltaLog view, long version) {
    TaggedCommit<JsonNode> last = TaggedCommit.find(view, version, metadata -> CommitTag.field(metadata, FIELD));
    if (last.rowsChanged().isPresent()) {
      long changed = last.rowsChanged().getAsLong();
      return changed == 0 ? none(IncrementalizationIssue.NO_PREVIOUS_REFRESH, "the view has not been refreshed yet")
          : none(IncrementalizationIssue.VIEW_CHANGED_OUTSIDE_REFRESH, "the view's table was written at version " + changed
              + " by something other than its refresh");
    }
    return last.tag().map(tag -> new Previous(Optional.of(parse(tag)), Optional.empty()))
        .orElseGet(() -> none(IncrementalizationIssue.NO_PREVIOUS_REFRESH, "no earlier refresh of the view is recorded"));
  }

  private static Previous none(String type, String reason) {
    return new Previous(Optional.empty(), Optional.of(new IncrementalizationIssue(type, reason)));
  }

  /** The state {@link #json} wrote. */
  static RefreshState parse(JsonNode node) {
    JsonNode state = node.path("state");
    Optional<StateBehind> behind = state.isObject()
        ? Optional.of(new StateBehind(state.path("refresh").asLong(), versions(state.path("inputs")),
            state.path("appended_bytes").asLong(), state.path("since").asLong()))
        : Optional.empty();
    return new RefreshState(node.path("refresh").asLong(), node.path("definition").asText(""), versions(node.path("inputs")),
        behind);
  }

  private static Map<String, Long> versions(JsonNode node) {
    Map<String, Long> inputs = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> inputs.put(e.getKey(), e.getValue().asLong()));
    return inputs;
  }
}
