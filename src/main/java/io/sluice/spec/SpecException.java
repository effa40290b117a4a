package io.sluice.spec;

import io.sluice.SluiceException;
import io.sluice.graph.Origin;

/** A problem with the spec file or the files it points to. */
public class SpecException extends SluiceException {
  public SpecException(String errorClass, Origin origin, String message) {
    super(errorClass, origin, message);
  }

  public SpecException(String errorClass, Origin origin, String message, Throwable cause) {
    super(errorClass, origin, message, cause);
  }
}
