package io.sluice.update;

import io.sluice.SluiceException;
import io.sluice.common.SparkErrors;
import io.sluice.eventlog.FlowState;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How one flow ended in an update, for the summary and the exit code.
 *
 * @param kindMetrics the flow kind's own counts over the update (e.g. REPLACE USING's keys_replaced)
 * @param rowsRescued rows whose {@code _rescued_data} was set: some of their input did not parse
 * @param expectationFailures per expectation, as "name (action)", the rows that failed it
 */
public record FlowOutcome(
    String flow, String dataset, String datasetType, FlowState state, int batches, long rowsWritten,
    long rowsDropped, long rowsRescued, Map<String, Long> kindMetrics, Map<String, Long> expectationFailures, Duration duration,
    Optional<Throwable> failure) {

  /** The failure as a user reads it. */
  public Optional<String> errorMessage() {
    return failure.map(FlowOutcome::describe);
  }

  static String describe(Throwable e) {
    if (e instanceof SluiceException sluice) {
      return sluice.userMessage();
    }
    return SparkErrors.firstLine(e);
  }
}
