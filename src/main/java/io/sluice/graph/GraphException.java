package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;

/** A definition error found while registering, resolving or validating the graph (§1.4). */
public class GraphException extends SluiceException {
  public GraphException(ErrorClass errorClass, Origin origin, String message) {
    super(errorClass, origin, message);
  }

  public GraphException(ErrorClass errorClass, Origin origin, String message, Throwable cause) {
    super(errorClass, origin, message, cause);
  }

  private GraphException(String sparkErrorClass, Origin origin, String message, Throwable cause) {
    super(sparkErrorClass, origin, message, cause);
  }

  /** A query Spark's analyser refused, under Spark's error class when it gives one. */
  public static GraphException analysisError(String sparkErrorClass, Origin origin, String message, Throwable cause) {
    return sparkErrorClass == null
        ? new GraphException(ErrorClass.QUERY_ERROR, origin, message, cause)
        : new GraphException(sparkErrorClass, origin, message, cause);
  }
}
