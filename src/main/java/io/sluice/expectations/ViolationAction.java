package io.sluice.expectations;

/** What happens to a row that violates an expectation (SEMANTICS §6.2). */
public enum ViolationAction {
  /** Keep the row and count it. */
  WARN,
  /** Remove the row before any other step of its flow, and count it. */
  DROP,
  /** Stop the flow and commit nothing of the batch. */
  FAIL
}
