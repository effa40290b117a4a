package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnscaledValue;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * What a group keeps of an {@code avg}: the sum of its values and their count, the sum as Spark
 * runs it, so that the average of the kept sum and count has the digits of a full recompute's.
 * Spark's optimizer averages decimals of up to 11 digits in floating point, from their unscaled
 * whole numbers, divided by the count and then by the scale (a double holds the 15 digits of
 * that average); it averages other values by its own {@code avg}'s running sum.
 */
final class AverageState {
  /** The decimal digits a double holds exactly, as Spark's optimizer counts them for an average of decimals. */
  private static final int MAX_DOUBLE_DIGITS = 15;

  private AverageState() {}

  /** The type the sum is kept in. */
  static DataType sumType(Average average) {
    return unscaled(average).isPresent() ? DataTypes.LongType : average.sumDataType();
  }

  /** What the sum adds of each value. */
  static Column summed(Average average) {
    return unscaled(average).isPresent() ? ExpressionUtils.column(new UnscaledValue(average.child()))
        : ExpressionUtils.column(average.child()).cast(average.sumDataType());
  }

  /** The average of the columns holding the kept sum and count, as Spark computes it from them. */
  static Column of(Average average, String sumColumn, String countColumn) {
    Optional<DecimalType> unscaled = unscaled(average);
    if (unscaled.isPresent()) {
      return when(col(countColumn).gt(0), col(sumColumn).cast("double").divide(col(countColumn).cast("double"))
          .divide(lit(Math.pow(10, unscaled.get().scale()))));
    }
    // The running sum and count replaced in Spark's own final expression.
    List<AttributeReference> buffer = CollectionConverters.asJava(average.aggBufferAttributes());
    Expression sumValue = ExpressionUtils.expression(col(sumColumn).cast(average.sumDataType()));
    Expression countValue = ExpressionUtils.expression(col(countColumn));
    return ExpressionUtils.column(average.evaluateExpression().transform(new AbstractPartialFunction<Expression, Expression>() {
      @Override
      public boolean isDefinedAt(Expression e) {
        return e instanceof AttributeReference reference && buffer.stream().anyMatch(b -> b.exprId().equals(reference.exprId()));
      }

      @Override
      public Expression apply(Expression e) {
        return ((AttributeReference) e).exprId().equals(buffer.get(0).exprId()) ? sumValue : countValue;
      }
    }));
  }

  private static Optional<DecimalType> unscaled(Average average) {
    return average.child().dataType() instanceof DecimalType decimal && decimal.precision() + 4 <= MAX_DOUBLE_DIGITS
        ? Optional.of(decimal) : Optional.empty();
  }
}
