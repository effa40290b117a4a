package io.sluice.common;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Quoting of Spark SQL identifiers (table, namespace and column names), the matching of
 * column names, and the names Sluice keeps for itself.
 */
public final class Identifiers {
  /** The prefix of the columns Sluice adds while it processes a batch; no user column may start with it. */
  public static final String RESERVED_PREFIX = "__sluice_";

  private Identifiers() {}

  /** Whether {@code column} starts with {@link #RESERVED_PREFIX}, in any case. */
  public static boolean isReserved(String column) {
    return column.regionMatches(true, 0, RESERVED_PREFIX, 0, RESERVED_PREFIX.length());
  }

  /**
   * Whether two column names name the same column, as Spark's analyser matches them: in any
   * case, unless {@code spark.sql.caseSensitive} is set.
   */
  public static boolean sameColumn(String a, String b) {
    return (Boolean) SQLConf.get().resolver().apply(a, b);
  }

  /** A key under which the names of one column are equal, for sets of column names. */
  public static String columnKey(String name) {
    return SQLConf.get().caseSensitiveAnalysis() ? name : name.toLowerCase(Locale.ROOT);
  }

  /** The field of {@code schema} that {@code column} names, if any. */
  public static Optional<StructField> field(StructType schema, String column) {
    return Arrays.stream(schema.fields()).filter(f -> sameColumn(f.name(), column)).findFirst();
  }

  /** Whether {@code schema} has a field that {@code column} names. */
  public static boolean hasField(StructType schema, String column) {
    return field(schema, column).isPresent();
  }

  /** {@code name} as a quoted identifier: in backquotes, a backquote in it doubled. */
  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
