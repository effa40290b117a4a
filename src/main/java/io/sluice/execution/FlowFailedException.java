package io.sluice.execution;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;

/** A flow failed while processing data, for a reason Spark or Delta reported. */
public final class FlowFailedException extends SluiceException {
  public FlowFailedException(String message, Throwable cause) {
    super(ErrorClass.FLOW_FAILED, null, message, cause);
  }
}
