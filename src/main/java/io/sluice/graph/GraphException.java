package io.sluice.graph;

import io.sluice.Origin;
import io.sluice.SluiceException;

/** A definition error found while registering, resolving or validating the graph (§1.4). */
public class GraphException extends SluiceException {
  public GraphException(String errorClass, Origin origin, String message) {
    super(errorClass, origin, message);
  }

  public GraphException(String errorClass, Origin origin, String message, Throwable cause) {
    super(errorClass, origin, message, cause);
  }
}
