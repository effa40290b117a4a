package io.sluice.sql;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkPlans;
import io.sluice.graph.GraphException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * {@code last_snapshot_version()} and {@code current_snapshot_version()} (SEMANTICS §5.2).
 * Inside the queries of an AUTO CDC FROM SNAPSHOT flow they are bound to a version: as a
 * value, or as a table of 0 or 1 row with one column {@code version}. Anywhere else they
 * are an error that says where they belong.
 */
public final class SnapshotVersionFunctions {
  static final String LAST = "last_snapshot_version";
  static final String CURRENT = "current_snapshot_version";

  /** A version bound to one of the functions: NULL (of {@code type}) when there is none. */
  public record Bound(Object value, DataType type) {}

  private SnapshotVersionFunctions() {}

  /** Replaces the calls in {@code plan}, subqueries included, by their bound values. */
  static LogicalPlan bind(SparkSession spark, LogicalPlan plan, Map<String, Bound> bound, Origin origin) {
    LogicalPlan tables = plan.transformUpWithSubqueries(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return node instanceof UnresolvedTableValuedFunction f && isVersionFunction(f.name());
      }

      @Override
      public LogicalPlan apply(LogicalPlan node) {
        UnresolvedTableValuedFunction f = (UnresolvedTableValuedFunction) node;
        Bound value = lookUp(f.name(), f.functionArgs(), bound, origin);
        return SparkPlans.logicalPlan(spark.range(1)
            .select(lit(value.value()).cast(value.type()).as("version"))
            .where(col("version").isNotNull()));
      }
    });
    return tables.transformAllExpressionsWithSubqueries(new AbstractPartialFunction<Expression, Expression>() {
      @Override
      public boolean isDefinedAt(Expression expression) {
        return expression instanceof UnresolvedFunction f && isVersionFunction(f.nameParts());
      }

      @Override
      public Expression apply(Expression expression) {
        UnresolvedFunction f = (UnresolvedFunction) expression;
        Bound value = lookUp(f.nameParts(), f.arguments(), bound, origin);
        return Literal.create(value.value(), value.type());
      }
    });
  }

  private static boolean isVersionFunction(scala.collection.Seq<String> name) {
    List<String> parts = CollectionConverters.asJava(name);
    return parts.size() == 1 && (parts.get(0).equalsIgnoreCase(LAST) || parts.get(0).equalsIgnoreCase(CURRENT));
  }

  private static Bound lookUp(
      scala.collection.Seq<String> name, scala.collection.Seq<Expression> arguments, Map<String, Bound> bound,
      Origin origin) {
    String function = name.head().toLowerCase(Locale.ROOT);
    if (!bound.containsKey(function)) {
      String place = function.equals(LAST)
          ? "in the WITH VERSION query of an AUTO CDC FROM SNAPSHOT flow"
          : "in the snapshot query of an AUTO CDC FROM SNAPSHOT flow that has WITH VERSION";
      throw new GraphException(ErrorClass.SNAPSHOT_VERSION_FUNCTION_MISPLACED, origin,
          function + "() can only be called " + place);
    }
    if (!arguments.isEmpty()) {
      throw new GraphException(ErrorClass.SNAPSHOT_VERSION_FUNCTION_MISPLACED, origin, function + "() takes no argument");
    }
    return bound.get(function);
  }
}
