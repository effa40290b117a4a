package io.sluice.common;

import io.sluice.SluiceException;
import java.util.Optional;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.catalyst.parser.ParseException;

/** Shortens Spark's error messages to the part a user needs: no plans, no SQL echo. */
public final class SparkErrors {
  private SparkErrors() {}

  /** Whether Spark refused a query at analysis (unknown table or column, type errors...). */
  public static boolean isAnalysisError(Throwable e) {
    return e instanceof AnalysisException && !(e instanceof ParseException);
  }

  /** Spark's Scala code throws checked exceptions undeclared; Java callers rethrow them as they are. */
  public static RuntimeException unchecked(Exception e) {
    return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getMessage(), e);
  }

  /**
   * The stable error class of {@code e} or of the first of its causes that has one: Sluice's own
   * ({@code EXPECTATION_VIOLATION}) or Spark's condition ({@code DIVIDE_BY_ZERO}); empty when none has.
   */
  public static Optional<String> errorClass(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SluiceException sluice) {
        return Optional.of(sluice.errorClass());
      }
      if (cause instanceof SparkThrowable spark && spark.getCondition() != null) {
        return Optional.of(spark.getCondition());
      }
    }
    return Optional.empty();
  }

  /** Whether {@code e} or a cause says a file it read is gone (deleted by VACUUM, say). */
  public static boolean fileGone(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.io.FileNotFoundException
          || cause instanceof SparkThrowable spark && spark.getCondition() != null
              && spark.getCondition().startsWith("FAILED_READ_FILE.FILE_NOT_EXIST")) {
        return true;
      }
    }
    return false;
  }

  public static String firstLine(Throwable e) {
    String message;
    if (e instanceof ParseException parse) {
      message = parse.getMessage();
    } else if (e instanceof AnalysisException analysis) {
      message = analysis.getSimpleMessage();
    } else {
      message = String.valueOf(e.getMessage());
    }
    String text = message.strip();
    int newline = text.indexOf('\n');
    String line = newline < 0 ? text : text.substring(0, newline);
    // Spark's positions are relative to the query text; Sluice reports the file's line instead.
    return line.replaceAll("\\(line \\d+, pos \\d+\\)", "").replaceAll(";? line \\d+ pos \\d+;?", "")
        .replaceAll(" SQLSTATE: \\w+\\.?", "").strip();
  }
}
