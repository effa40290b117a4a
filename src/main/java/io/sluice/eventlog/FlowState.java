package io.sluice.eventlog;

/** A flow's state within one update (SEMANTICS §8). */
public enum FlowState {
  QUEUED, STARTING, RUNNING, COMPLETED, FAILED, SKIPPED, EXCLUDED,
  /** The update was asked to stop while the flow ran; the next update goes on from its last batch. */
  STOPPED;

  public boolean isFinal() {
    return this == COMPLETED || this == FAILED || this == SKIPPED || this == EXCLUDED || this == STOPPED;
  }
}
