package io.sluice.delta;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Whether a data file may hold a row for which a predicate holds, decided from the file's
 * statistics in the Delta log (the minimum, maximum and NULL count of each column), on the driver.
 * It answers "may" whenever it cannot tell: a form of predicate it does not know, a type whose
 * statistics are not exact (timestamps are kept to the millisecond, strings cut to a prefix),
 * a column without statistics. So it never leaves out a file that holds a matching row; it
 * prunes the forms a keyed batch's bounds take ({@code k IN (...)}, {@code k BETWEEN a AND b},
 * {@code OR k IS NULL}) on integers, dates, decimals and strings.
 */
final class FileStatsPredicate {
  // Decimal bounds read as written, not through a double.
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private final Expression predicate;
  private final int stringPrefixLength;

  /**
   * @param predicate an analyzed predicate over the table's top-level columns, named as in its
   *     statistics (no column mapping)
   * @param stringPrefixLength the length Delta cuts string statistics to: a maximum that long may
   *     have been cut, and bounds nothing
   */
  FileStatsPredicate(Expression predicate, int stringPrefixLength) {
    this.predicate = predicate;
    this.stringPrefixLength = stringPrefixLength;
  }

  /** Whether {@code file} may hold a row for which the predicate holds. */
  boolean mayMatch(AddFile file) {
    if (file.stats() == null || file.stats().isEmpty()) {
      return true;
    }
    try {
      return mayMatch(predicate, JSON.readTree(file.stats()));
    } catch (IOException e) {
      throw new UncheckedIOException("the statistics of " + file.path() + " are not JSON", e);
    }
  }

  private boolean mayMatch(Expression e, JsonNode stats) {
    if (e instanceof Literal literal && literal.value() instanceof Boolean value) {
      return value;
    }
    if (e instanceof And and) {
      return mayMatch(and.left(), stats) && mayMatch(and.right(), stats);
    }
    if (e instanceof Or or) {
      return mayMatch(or.left(), stats) || mayMatch(or.right(), stats);
    }
    if (e instanceof IsNull isNull && isNull.child() instanceof Attribute column) {
      JsonNode nulls = stats.path("nullCount").path(column.name());
      return !nulls.isNumber() || nulls.asLong() > 0;
    }
    if (e instanceof In in && in.value() instanceof Attribute column) {
      for (Expression item : CollectionConverters.asJava(in.list())) {
        if (!item.foldable() || equalMayMatch(column, item.eval(null), stats)) {
          return true;
        }
      }
      return false;
    }
    if (e instanceof InSet inSet && inSet.child() instanceof Attribute column) {
      for (Object value : CollectionConverters.asJava(inSet.hset())) {
        if (equalMayMatch(column, value, stats)) {
          return true;
        }
      }
      return false;
    }
    if (e instanceof BinaryComparison comparison) {
      return comparisonMayMatch(comparison, stats);
    }
    return true;
  }

  private boolean comparisonMayMatch(BinaryComparison comparison, JsonNode stats) {
    boolean columnLeft = comparison.left() instanceof Attribute && comparison.right().foldable();
    boolean columnRight = comparison.right() instanceof Attribute && comparison.left().foldable();
    if (!columnLeft && !columnRight) {
      return true;
    }
    Attribute column = (Attribute) (columnLeft ? comparison.left() : comparison.right());
    Object value = (columnLeft ? comparison.right() : comparison.left()).eval(null);
    if (comparison instanceof EqualTo || comparison instanceof EqualNullSafe) {
      return equalMayMatch(column, value, stats);
    }
    if (value != null && allNull(column, stats)) {
      return false;
    }
    // With the column on the right, "v < k" asks what "k > v" asks.
    boolean greater = comparison instanceof GreaterThan || comparison instanceof GreaterThanOrEqual;
    boolean less = comparison instanceof LessThan || comparison instanceof LessThanOrEqual;
    if (!greater && !less) {
      return true;
    }
    boolean above = columnLeft == greater;
    boolean inclusive = comparison instanceof GreaterThanOrEqual || comparison instanceof LessThanOrEqual;
    Optional<Integer> order = above ? compare(column, "maxValues", stats, value) : compare(column, "minValues", stats, value);
    if (order.isEmpty()) {
      return true;
    }
    int c = order.get();
    return above ? (inclusive ? c >= 0 : c > 0) : (inclusive ? c <= 0 : c < 0);
  }

  /** Whether some row may have {@code value} in {@code column}: it lies within the file's bounds. */
  private boolean equalMayMatch(Attribute column, Object value, JsonNode stats) {
    if (value == null) {
      return true;
    }
    if (allNull(column, stats)) {
      return false;
    }
    Optional<Integer> min = compare(column, "minValues", stats, value);
    Optional<Integer> max = compare(column, "maxValues", stats, value);
    return (min.isEmpty() || min.get() <= 0) && (max.isEmpty() || max.get() >= 0);
  }

  /** Whether every row of the file has NULL in {@code column}: no comparison with a value holds there. */
  private static boolean allNull(Attribute column, JsonNode stats) {
    JsonNode nulls = stats.path("nullCount").path(column.name());
    JsonNode rows = stats.path("numRecords");
    return nulls.canConvertToLong() && rows.canConvertToLong() && nulls.asLong() == rows.asLong();
  }

  /**
   * The order of the file's bound ({@code minValues} or {@code maxValues}) of {@code column}
   * against {@code value} (Spark's internal form of a literal), or empty when the bound is
   * missing or not exact for its type.
   */
  private Optional<Integer> compare(Attribute column, String bound, JsonNode stats, Object value) {
    JsonNode stat = stats.path(bound).path(column.name());
    if (stat.isMissingNode() || stat.isNull() || value == null) {
      return Optional.empty();
    }
    DataType type = column.dataType();
    if ((type instanceof LongType || type instanceof IntegerType || type instanceof ShortType || type instanceof ByteType)
        && stat.canConvertToLong() && value instanceof Number number) {
      return Optional.of(Long.compare(stat.asLong(), number.longValue()));
    }
    if (type instanceof DateType && stat.isTextual() && value instanceof Integer days) {
      return Optional.of(Long.compare(LocalDate.parse(stat.asText()).toEpochDay(), days));
    }
    if (type instanceof DecimalType && stat.isNumber() && value instanceof Decimal decimal) {
      return Optional.of(stat.decimalValue().compareTo(decimal.toJavaBigDecimal()));
    }
    if (type instanceof StringType string && string.isUTF8BinaryCollation() && stat.isTextual()
        && value instanceof UTF8String text) {
      // A maximum as long as the prefix may have been cut: it bounds nothing.
      if (bound.equals("maxValues") && stat.asText().codePointCount(0, stat.asText().length()) >= stringPrefixLength) {
        return Optional.empty();
      }
      return Optional.of(UTF8String.fromString(stat.asText()).binaryCompare(text));
    }
    return Optional.empty();
  }
}
