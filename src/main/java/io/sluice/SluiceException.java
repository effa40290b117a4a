package io.sluice;


/**
 * A user-facing failure: a stable error class ({@link ErrorClass}) (for tests and tooling), the origin of the
 * definition at fault when there is one, and a message meant to be read by a person.
 */
public class SluiceException extends RuntimeException {
  private final String errorClass;
  private final Origin origin;

  public SluiceException(ErrorClass errorClass, Origin origin, String message) {
    this(errorClass.name(), origin, message, null);
  }

  public SluiceException(ErrorClass errorClass, Origin origin, String message, Throwable cause) {
    this(errorClass.name(), origin, message, cause);
  }

  public SluiceException(ErrorClass errorClass, String message) {
    this(errorClass.name(), Origin.UNKNOWN, message, null);
  }

  /** An error whose class is Spark's, not one of {@link ErrorClass}. */
  protected SluiceException(String errorClass, Origin origin, String message, Throwable cause) {
    super(message, cause);
    this.errorClass = errorClass;
    this.origin = origin == null ? Origin.UNKNOWN : origin;
  }

  public String errorClass() {
    return errorClass;
  }

  public Origin origin() {
    return origin;
  }

  /** The line printed to the user: {@code file:line: message [ERROR_CLASS]}. */
  public String userMessage() {
    return userMessage("");
  }

  /** The line printed to the user, with {@code hint} (a next step) after the message. */
  public String userMessage(String hint) {
    String where = origin.isKnown() ? origin + ": " : "";
    return where + getMessage() + hint + " [" + errorClass + "]";
  }
}
