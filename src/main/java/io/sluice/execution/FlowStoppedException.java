package io.sluice.execution;

/**
 * A flow did not start its next batch because the update was asked to stop. Nothing of that
 * batch was written; the next update processes it, as after a crash.
 */
public final class FlowStoppedException extends RuntimeException {
  public FlowStoppedException() {
    super("the update was asked to stop", null, false, false);
  }
}
