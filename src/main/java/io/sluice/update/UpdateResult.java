package io.sluice.update;

import io.sluice.eventlog.FlowState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The end of an update: every flow's outcome, over all its rounds. It failed if any flow failed.
 *
 * @param rounds how many rounds of flows ran: 1 for a triggered update
 * @param stoppedBy who asked a continuous update to stop (e.g. "SIGTERM"), if it was stopped
 */
public record UpdateResult(
    String updateId, List<FlowOutcome> flows, List<String> warnings, Duration duration, int rounds,
    Optional<String> stoppedBy) {
  public UpdateResult {
    flows = List.copyOf(flows);
    warnings = List.copyOf(warnings);
  }

  public boolean succeeded() {
    return flows.stream().noneMatch(f -> f.state() == FlowState.FAILED);
  }

  /** The update's final state, as the event log and the summary say it. */
  public String state() {
    return !succeeded() ? "FAILED" : stoppedBy.isPresent() ? "CANCELED" : "COMPLETED";
  }
}
