package io.sluice.common;

/** String literals in the Spark SQL that Sluice writes itself (comments, properties, locations). */
public final class SqlStrings {
  private SqlStrings() {}

  /** {@code text} as a Spark SQL string literal: in single quotes, a backslash and a quote escaped. */
  public static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
