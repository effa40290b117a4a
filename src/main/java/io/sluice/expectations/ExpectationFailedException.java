package io.sluice.expectations;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;

/** A FAIL UPDATE expectation met a violating row: the flow stops and commits nothing of the batch. */
public final class ExpectationFailedException extends SluiceException {
  public ExpectationFailedException(Expectation expectation, String dataset, String flow, String offendingRow) {
    super(ErrorClass.EXPECTATION_VIOLATION, expectation.origin(),
        "expectation '" + expectation.name() + "' on '" + dataset + "' failed in flow '" + flow
            + "': (" + expectation.condition() + ") is not true for row " + offendingRow);
  }
}
