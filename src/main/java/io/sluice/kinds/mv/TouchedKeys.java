package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;

import io.sluice.common.SparkPlans;
import io.sluice.delta.Scala;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.JoinHint$;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.util.TypeUtils;
import org.apache.spark.sql.types.AtomicType;
import org.apache.spark.sql.types.DataType;
import scala.Option;
import scala.math.Ordering;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The key values a change touches (a join's keys, a window's partition): the distinct values of
 * the key expressions over the rows the change gains and loses, and their range. A plan is sliced
 * to its rows of those keys by a semi join, under a filter on the range: literal bounds by which
 * Delta skips the files that hold none of them.
 */
final class TouchedKeys {
  private static final String KEY = "__sluice_key_";
  /** The most touched keys listed in a slice's plan, which then reads no change again. */
  static final int LISTED = 20_000;
  private final LogicalPlan distinct;
  private final List<Range> ranges;

  /** The range of one key's touched values: {@code low} null when all are NULL. */
  private record Range(Object low, Object high, boolean nulls) {
    /** Rows whose {@code key} is in the range, or NULL when a NULL was touched; null when a bound would not help. */
    Expression over(Expression key) {
      if (!(key instanceof Attribute && key.dataType() instanceof AtomicType)) {
        return null;
      }
      Expression isNull = new IsNull(key);
      if (low == null) {
        return isNull;
      }
      Expression between = new And(new GreaterThanOrEqual(key, Literal.create(low, key.dataType())),
          new LessThanOrEqual(key, Literal.create(high, key.dataType())));
      return nulls ? new Or(between, isNull) : between;
    }
  }

  private TouchedKeys(LogicalPlan distinct, List<Range> ranges) {
    this.distinct = distinct;
    this.ranges = ranges;
  }

  /**
   * The values of {@code keys} over {@code rows}, with their range per key: one Spark job over the
   * changed rows alone when they touch at most {@value #LISTED} keys, whose values are then listed
   * in the plans that slice by them; two when they touch more, and each slice reads the change
   * again.
   */
  static TouchedKeys of(SparkSession spark, LogicalPlan rows, List<Expression> keys) {
    List<NamedExpression> named = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      named.add(alias(keys.get(i), KEY + i));
    }
    LogicalPlan distinct = new Distinct(new Project(Scala.seq(named), rows));
    List<Row> few = SparkPlans.ofRows(spark, distinct).limit(LISTED + 1).collectAsList();
    if (few.size() <= LISTED) {
      LocalRelation listed = LocalRelation.fromExternalRows(distinct.output(), Scala.seq(few));
      return new TouchedKeys(listed, ranges(listed));
    }
    List<Column> aggregates = new ArrayList<>();
    aggregates.add(count(lit(1)));
    for (int i = 0; i < keys.size(); i++) {
      aggregates.add(min(col(KEY + i)));
      aggregates.add(max(col(KEY + i)));
      aggregates.add(count(col(KEY + i)));
    }
    Row range = SparkPlans.ofRows(spark, distinct).agg(aggregates.get(0), aggregates.subList(1, aggregates.size())
        .toArray(Column[]::new)).first();
    List<Range> ranges = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      ranges.add(new Range(range.get(1 + 3 * i), range.get(2 + 3 * i), range.getLong(0) > range.getLong(3 + 3 * i)));
    }
    return new TouchedKeys(distinct, ranges);
  }

  /** Each key's range over listed values, by Spark's own ordering of their type. */
  private static List<Range> ranges(LocalRelation listed) {
    List<Range> ranges = new ArrayList<>();
    List<InternalRow> values = CollectionConverters.asJava(listed.data());
    List<Attribute> columns = CollectionConverters.asJava(listed.output());
    for (int i = 0; i < columns.size(); i++) {
      DataType type = columns.get(i).dataType();
      if (!(type instanceof AtomicType)) {
        ranges.add(new Range(null, null, true)); // no bound is drawn on such a key
        continue;
      }
      Ordering<Object> order = TypeUtils.getInterpretedOrdering(type);
      Object low = null;
      Object high = null;
      boolean nulls = false;
      for (InternalRow row : values) {
        if (row.isNullAt(i)) {
          nulls = true;
          continue;
        }
        Object value = row.get(i, type);
        low = low == null || order.compare(value, low) < 0 ? value : low;
        high = high == null || order.compare(value, high) > 0 ? value : high;
      }
      ranges.add(new Range(CatalystTypeConverters.convertToScala(low, type), CatalystTypeConverters.convertToScala(high, type),
          nulls));
    }
    return ranges;
  }

  /** The rows of {@code plan} whose {@code keys} are in the touched keys' range: the filter Delta skips files by. */
  LogicalPlan bounded(LogicalPlan plan, List<Expression> keys) {
    Expression bounds = null;
    for (int i = 0; i < keys.size(); i++) {
      Expression range = ranges.get(i).over(keys.get(i));
      bounds = range == null ? bounds : and(bounds, range);
    }
    return bounds == null ? plan : new Filter(bounds, plan);
  }

  /**
   * The rows of {@code plan} whose {@code keys} (the same expressions, over its columns) are among
   * the touched ones, NULL matching NULL.
   */
  LogicalPlan slice(LogicalPlan plan, List<Expression> keys) {
    // Fresh names for each use of the touched keys: a plan must not join a relation to its own columns.
    List<NamedExpression> fresh = new ArrayList<>();
    CollectionConverters.asJava(distinct.output()).forEach(column -> fresh.add(alias(column, column.name())));
    LogicalPlan renamed = new Project(Scala.seq(fresh), distinct);
    List<Attribute> columns = CollectionConverters.asJava(renamed.output());
    Expression match = null;
    for (int i = 0; i < keys.size(); i++) {
      match = and(match, new EqualNullSafe(keys.get(i), columns.get(i)));
    }
    return new Join(plan, renamed, LeftSemi$.MODULE$, Option.apply(match), JoinHint$.MODULE$.NONE());
  }

  private static Expression and(Expression left, Expression right) {
    return left == null ? right : new And(left, right);
  }

  private static Alias alias(Expression value, String name) {
    return new Alias(value, name, NamedExpression$.MODULE$.newExprId(), Scala.seq(List.of()), Option.empty(),
        Scala.seq(List.of()));
  }
}
