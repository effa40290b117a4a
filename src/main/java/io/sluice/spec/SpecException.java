package io.sluice.spec;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;

/** A problem with the spec file or the files it points to. */
public class SpecException extends SluiceException {
  public SpecException(ErrorClass errorClass, Origin origin, String message) {
    super(errorClass, origin, message);
  }

  public SpecException(ErrorClass errorClass, Origin origin, String message, Throwable cause) {
    super(errorClass, origin, message, cause);
  }
}
