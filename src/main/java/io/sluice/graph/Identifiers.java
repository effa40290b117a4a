package io.sluice.graph;

/** Quoting of Spark SQL identifiers (table, namespace and column names), and the names Sluice keeps for itself. */
public final class Identifiers {
  /** The prefix of the columns Sluice adds while it processes a batch; no user column may start with it. */
  public static final String RESERVED_PREFIX = "__sluice_";

  private Identifiers() {}

  /** Whether {@code column} starts with {@link #RESERVED_PREFIX}, in any case. */
  public static boolean isReserved(String column) {
    return column.regionMatches(true, 0, RESERVED_PREFIX, 0, RESERVED_PREFIX.length());
  }

  /** {@code name} as a quoted identifier: in backquotes, a backquote in it doubled. */
  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
