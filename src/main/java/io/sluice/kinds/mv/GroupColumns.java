package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import io.sluice.common.Identifiers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The columns of a view whose query is one GROUP BY at the top: its group keys, and for each
 * aggregate how the aggregate of new rows merges with the value the view holds. Only aggregates
 * that merge from their own value qualify: {@code count}, {@code sum} of exact numbers,
 * {@code min}, {@code max}.
 */
record GroupColumns(List<String> keys, Map<String, Merge> aggregates) {
  /** How a group's value and the value of its new rows make the value of both. */
  enum Merge {
    COUNT, SUM, MIN, MAX;

    Column of(Column held, Column added) {
      return switch (this) {
        case COUNT -> coalesce(held, lit(0L)).plus(added);
        case SUM -> when(held.isNull(), added).when(added.isNull(), held).otherwise(held.plus(added));
        case MIN -> least(held, added);
        case MAX -> greatest(held, added);
      };
    }
  }

  GroupColumns {
    keys = List.copyOf(keys);
    aggregates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(aggregates));
  }

  /** The view's columns of {@code aggregate}, or why a group's rows cannot be merged. */
  static Shaped of(Aggregate aggregate) {
    List<Expression> grouping = CollectionConverters.asJava(aggregate.groupingExpressions());
    List<String> keys = new ArrayList<>();
    List<Expression> keyed = new ArrayList<>();
    Map<String, Merge> merges = new LinkedHashMap<>();
    for (NamedExpression column : CollectionConverters.asJava(aggregate.aggregateExpressions())) {
      Expression value = column instanceof Alias alias ? alias.child() : (Expression) column;
      Expression group = grouping.stream().filter(g -> g.semanticEquals(value)).findFirst().orElse(null);
      if (group != null) {
        keys.add(column.name());
        keyed.add(group);
        continue;
      }
      if (!(value instanceof AggregateExpression call)) {
        return Shaped.not("column " + Identifiers.quote(column.name()) + " computes over aggregates (" + value.sql()
            + "); only count, sum, min and max, each a column of its own, merge");
      }
      if (call.isDistinct()) {
        return Shaped.not("column " + Identifiers.quote(column.name()) + " aggregates DISTINCT values (" + value.sql()
            + "): merging needs the values themselves");
      }
      AggregateFunction function = call.aggregateFunction();
      Merge merge = function instanceof Count ? Merge.COUNT
          : function instanceof Sum ? Merge.SUM
          : function instanceof Min ? Merge.MIN
          : function instanceof Max ? Merge.MAX : null;
      if (merge == null) {
        return Shaped.not("column " + Identifiers.quote(column.name()) + " is " + function.prettyName()
            + "(...), which does not merge from its own value (count, sum, min and max do)");
      }
      if (merge == Merge.SUM && (function.dataType() instanceof DoubleType || function.dataType() instanceof FloatType)) {
        return Shaped.not("column " + Identifiers.quote(column.name()) + " sums floating-point values, whose sum"
            + " depends on the order they are added in");
      }
      merges.put(column.name(), merge);
    }
    for (Expression group : grouping) {
      if (keyed.stream().noneMatch(group::semanticEquals)) {
        return Shaped.not("GROUP BY " + group.sql() + " is not a column of the view: its groups cannot be found again");
      }
    }
    return new Shaped(new GroupColumns(keys, merges), null);
  }

  /** The columns, or the reason there are none. */
  record Shaped(GroupColumns columns, String whyNot) {
    static Shaped not(String reason) {
      return new Shaped(null, reason);
    }
  }

  /** The view's merged rows: each group of {@code added} (aliased {@code a}) with the view's row for it ({@code v}). */
  List<Column> merged() {
    List<Column> columns = new ArrayList<>();
    for (String key : keys) {
      columns.add(col("a." + Identifiers.quote(key)).as(key));
    }
    aggregates.forEach((name, merge) -> columns.add(
        merge.of(col("v." + Identifiers.quote(name)), col("a." + Identifiers.quote(name))).as(name)));
    return columns;
  }

  /** The condition matching a group of new rows ({@code a}) with the view's row of the same group ({@code v}). */
  Column sameGroup() {
    return sameValues("a", "v", keys);
  }

  /** The condition matching rows aliased {@code left} and {@code right} whose {@code columns} are equal, NULL matching NULL. */
  static Column sameValues(String left, String right, List<String> columns) {
    Column match = lit(true);
    for (String column : columns) {
      match = match.and(col(left + "." + Identifiers.quote(column)).eqNullSafe(col(right + "." + Identifiers.quote(column))));
    }
    return match;
  }
}
