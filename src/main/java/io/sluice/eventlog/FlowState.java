package io.sluice.eventlog;

/** A flow's state within one update (SEMANTICS §8). */
public enum FlowState {
  QUEUED, STARTING, RUNNING, COMPLETED, FAILED, SKIPPED, EXCLUDED;

  public boolean isFinal() {
    return this == COMPLETED || this == FAILED || this == SKIPPED || this == EXCLUDED;
  }
}
