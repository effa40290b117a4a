package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkErrors;
import io.sluice.graph.GraphException;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.classic.ExpressionUtils;

/** The arguments of Sluice's table functions ({@code read_files}, {@code list_files}): constants, read once. */
final class FunctionArguments {
  private FunctionArguments() {}

  /**
   * A constant argument's value. A call on constants (e.g. {@code format_string('%d.json',
   * current_snapshot_version())}) is not resolved yet, so Spark evaluates it once.
   */
  static String constant(SparkSession spark, Expression expression, String function, String argument, Origin origin) {
    Object value;
    if (expression.resolved()) {
      if (!expression.foldable()) {
        throw error(function, origin, "argument '" + argument + "' must be a constant");
      }
      value = expression.eval(null);
    } else {
      try {
        value = spark.range(1).select(ExpressionUtils.column(expression)).first().get(0);
      } catch (Exception e) {
        throw error(function, origin, "argument '" + argument + "' must be a constant: " + SparkErrors.firstLine(e));
      }
    }
    if (value == null) {
      throw error(function, origin, "argument '" + argument + "' is NULL");
    }
    return value.toString();
  }

  static GraphException error(String function, Origin origin, String message) {
    ErrorClass invalid = ErrorClass.valueOf("INVALID_" + function.toUpperCase(Locale.ROOT));
    return new GraphException(invalid, origin, function + " " + message);
  }
}
