package io.sluice.update;

import io.sluice.eventlog.FlowState;
import java.time.Duration;
import java.util.List;

/** The end of an update: every flow's outcome. It failed if any flow failed. */
public record UpdateResult(String updateId, List<FlowOutcome> flows, List<String> warnings, Duration duration) {
  public UpdateResult {
    flows = List.copyOf(flows);
    warnings = List.copyOf(warnings);
  }

  public boolean succeeded() {
    return flows.stream().noneMatch(f -> f.state() == FlowState.FAILED);
  }
}
