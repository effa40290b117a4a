package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import io.sluice.common.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import io.sluice.common.SparkPlans;
import io.sluice.delta.Scala;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.JoinHint$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.Option;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The columns of a view whose query is one GROUP BY at the top, for
 * {@link Technique#GROUP_AGGREGATE}: its group keys, and for each aggregate what a group keeps
 * beside the view ({@link GroupState}) so that rows can be added to it and taken from it. Only
 * aggregates that do so exactly qualify: {@code count}, {@code sum} and {@code avg} of exact
 * numbers (a count, and a sum in the aggregate's own type, per group), {@code min} and
 * {@code max} (the view's own value; a group that loses the row holding it is recomputed), and
 * one {@code count(DISTINCT ...)} (each value's count per group, {@link DistinctValues}).
 *
 * <p>Columns of a change's aggregate: {@value #ROWS} (the rows it adds less those it takes
 * away), and per aggregate {@code j} {@code __sluice_n<j>} (the same of the rows it counts),
 * {@code __sluice_a<j>} and {@code __sluice_d<j>} (the sum, min or max of the values added and
 * of those taken away). The state keeps {@value #ROWS}, {@code __sluice_n<j>} and, for a sum
 * or average, {@code __sluice_s<j>}.
 */
final class GroupColumns {
  static final String ROWS = "__sluice_rows";
  static final String LOST = "__sluice_lost";
  static final String VALUE = "__sluice_value";
  private final Aggregate aggregate;
  private final List<Output> outputs;

  /** How a group's aggregate follows rows added to it and taken from it. */
  enum Merge {
    COUNT, SUM, AVG, MIN, MAX, DISTINCT;

    /** The aggregate of {@code values} that the group's kept value takes in: their sum, min or max. */
    Column of(Column values) {
      return switch (this) {
        case MIN -> min(values);
        case MAX -> max(values);
        default -> sum(values);
      };
    }
  }

  /** One column of the view: a group key (its grouping expression), or an aggregate (its call and how it merges). */
  private record Output(String name, DataType type, Expression key, AggregateExpression call, Merge merge) {
    Expression value() {
      return call.aggregateFunction().children().head();
    }
  }

  private GroupColumns(Aggregate aggregate, List<Output> outputs) {
    this.aggregate = aggregate;
    this.outputs = List.copyOf(outputs);
  }

  /** The view's columns of {@code aggregate}, or why a group's rows cannot be merged. */
  static Shaped of(Aggregate aggregate) {
    List<Expression> grouping = CollectionConverters.asJava(aggregate.groupingExpressions());
    List<Expression> keyed = new ArrayList<>();
    List<Output> outputs = new ArrayList<>();
    for (NamedExpression column : CollectionConverters.asJava(aggregate.aggregateExpressions())) {
      Expression value = column instanceof Alias alias ? alias.child() : (Expression) column;
      Expression group = grouping.stream().filter(g -> g.semanticEquals(value)).findFirst().orElse(null);
      if (group != null) {
        keyed.add(group);
        outputs.add(new Output(column.name(), ((Expression) column).dataType(), group, null, null));
        continue;
      }
      String quoted = Identifiers.quote(column.name());
      if (!(value instanceof AggregateExpression call)) {
        return Shaped.not("column " + quoted + " computes over aggregates (" + value.sql()
            + "); only count, sum, avg, min and max, each a column of its own, merge");
      }
      AggregateFunction function = call.aggregateFunction();
      if (call.isDistinct()) {
        if (!(function instanceof Count) || call.filter().isDefined()) {
          return Shaped.not("column " + quoted + " aggregates DISTINCT values (" + value.sql()
              + "): only count(DISTINCT ...) without FILTER merges, from each group's count of each value");
        }
        if (outputs.stream().anyMatch(o -> o.merge() == Merge.DISTINCT)) {
          return Shaped.not("column " + quoted + " is a second count(DISTINCT ...): a group keeps the counts of one"
              + " column's values");
        }
        outputs.add(new Output(column.name(), ((Expression) column).dataType(), null, call, Merge.DISTINCT));
        continue;
      }
      Merge merge = function instanceof Count ? Merge.COUNT
          : function instanceof Sum ? Merge.SUM
          : function instanceof Average ? Merge.AVG
          : function instanceof Min ? Merge.MIN
          : function instanceof Max ? Merge.MAX : null;
      if (merge == null) {
        return Shaped.not("column " + quoted + " is " + function.prettyName()
            + "(...), which does not merge from what a group keeps (count, sum, avg, min and max do)");
      }
      if ((merge == Merge.SUM || merge == Merge.AVG) && inexact(function.children().head().dataType())) {
        return Shaped.not("column " + quoted + " adds up floating-point values, whose sum depends on the order"
            + " they are added in");
      }
      outputs.add(new Output(column.name(), ((Expression) column).dataType(), null, call, merge));
    }
    for (Expression group : grouping) {
      if (keyed.stream().noneMatch(group::semanticEquals)) {
        return Shaped.not("GROUP BY " + group.sql() + " is not a column of the view: its groups cannot be found again");
      }
    }
    return new Shaped(new GroupColumns(aggregate, outputs), null);
  }

  private static boolean inexact(DataType type) {
    return type instanceof DoubleType || type instanceof FloatType;
  }

  /** The columns, or the reason there are none. */
  record Shaped(GroupColumns columns, String whyNot) {
    static Shaped not(String reason) {
      return new Shaped(null, reason);
    }
  }

  /** The GROUP BY at the query's top. */
  Aggregate aggregate() {
    return aggregate;
  }

  /** The view's key columns. */
  List<String> keys() {
    return outputs.stream().filter(o -> o.key() != null).map(Output::name).toList();
  }

  /** Whether a group's {@code min} or {@code max} may be lost to rows taken away: the group is then recomputed. */
  boolean hasExtremes() {
    return outputs.stream().anyMatch(o -> o.merge() == Merge.MIN || o.merge() == Merge.MAX);
  }

  /**
   * Whether appended rows merge into the view's own rows, with no group state: every aggregate is
   * a {@code count}, {@code sum}, {@code min} or {@code max}, whose value in the view is all a
   * group needs to take more rows in, and the view has group keys to find its rows by.
   */
  boolean mergesFromView() {
    return !keys().isEmpty() && outputs.stream().allMatch(o -> o.merge() == null || o.merge() == Merge.COUNT
        || o.merge() == Merge.SUM || o.merge() == Merge.MIN || o.merge() == Merge.MAX);
  }

  /** The group keys of rows of the aggregate's input (their sign in {@code sign}): grouping columns, named as the view's. */
  Column[] keyValues() {
    return outputs.stream().filter(o -> o.key() != null)
        .map(o -> ExpressionUtils.column(o.key()).as(o.name())).toArray(Column[]::new);
  }

  /**
   * A change's aggregate per group, over the aggregate's input rows with their {@code sign} (+1
   * added, -1 taken away); all added when {@code sign} is null, which aggregates as plainly as
   * the query does.
   */
  Column[] change(Column sign) {
    return sign == null ? added() : signed(sign);
  }

  /** {@link #change} of rows all added: the query's own aggregates, which Spark plans as it plans the query's. */
  private Column[] added() {
    List<Column> columns = new ArrayList<>();
    columns.add(count(lit(1)).as(ROWS));
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      if (output.merge() == null || output.merge() == Merge.DISTINCT) {
        continue;
      }
      AggregateExpression call = output.call();
      Column value = filtered(call, ExpressionUtils.column(output.value()));
      switch (output.merge()) {
        case COUNT -> columns.add(again(call).as(n(j)));
        case SUM -> {
          columns.add(count(value).as(n(j)));
          columns.add(again(call).as(a(j)));
        }
        case AVG -> {
          columns.add(count(value).as(n(j)));
          columns.add(sum(filtered(call, AverageState.summed((Average) call.aggregateFunction()))).as(a(j)));
        }
        default -> columns.add(again(call).as(a(j)));
      }
      if (output.merge() != Merge.COUNT) {
        columns.add(lit(null).cast(valueType(output)).as(d(j)));
      }
    }
    return columns.toArray(Column[]::new);
  }

  /** {@link #change} of rows with their {@code sign}. */
  private Column[] signed(Column sign) {
    List<Column> columns = new ArrayList<>();
    columns.add(coalesce(sum(sign).cast("long"), lit(0L)).as(ROWS));
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      if (output.merge() == null || output.merge() == Merge.DISTINCT) {
        continue;
      }
      Column counted = counted(output.call());
      if (output.merge() == Merge.COUNT || output.merge() == Merge.SUM || output.merge() == Merge.AVG) {
        columns.add(coalesce(sum(when(counted, sign).otherwise(0)).cast("long"), lit(0L)).as(n(j)));
      }
      if (output.merge() == Merge.COUNT) {
        continue;
      }
      DataType type = valueType(output);
      Column kept = output.call().aggregateFunction() instanceof Average average ? AverageState.summed(average)
          : ExpressionUtils.column(output.value()).cast(type);
      columns.add(output.merge().of(when(sign.gt(0).and(counted), kept)).cast(type).as(a(j)));
      columns.add(output.merge().of(when(sign.lt(0).and(counted), kept)).cast(type).as(d(j)));
    }
    return columns.toArray(Column[]::new);
  }

  /** The aggregate call made anew (its own result id), for another aggregate than the query's. */
  private static Column again(AggregateExpression call) {
    return ExpressionUtils.column(call.aggregateFunction().toAggregateExpression(call.isDistinct(), call.filter()));
  }

  /** {@code value} where the call's FILTER holds, else NULL, which aggregates skip. */
  private static Column filtered(AggregateExpression call, Column value) {
    return call.filter().isDefined() ? when(coalesce(ExpressionUtils.column(call.filter().get()), lit(false)), value) : value;
  }

  /** The type of the values {@code __sluice_a<j>} and {@code __sluice_d<j>} hold: a min's or max's, a sum's. */
  private static DataType valueType(Output output) {
    return output.merge() == Merge.MIN || output.merge() == Merge.MAX ? output.value().dataType() : stateSumType(output);
  }

  /**
   * Each changed group ({@code c}, of {@link #change}) merged with what it kept ({@code s}, the
   * state, when {@code kept}) and the view's row ({@code v}, when {@code held}: read for
   * {@code min} and {@code max} only): the keys, the new state, the new values
   * ({@code __sluice_v<j>}) and {@value #LOST}, whether a {@code min} or {@code max} went with
   * the rows taken away.
   */
  Column[] merged(boolean kept, boolean held) {
    return merged(kept, held, false);
  }

  /**
   * {@link #merged} of appended rows ({@code c}) with the view's rows alone ({@code v}), when the
   * view {@link #mergesFromView}: a count and a sum go on from the view's value, and
   * {@code __sluice_n<j>} of a sum says only whether the group has a value.
   */
  Column[] mergedFromView() {
    return merged(false, true, true);
  }

  private Column[] merged(boolean kept, boolean held, boolean fromView) {
    List<Column> columns = new ArrayList<>();
    for (String key : keys()) {
      columns.add(col("c." + Identifiers.quote(key)).as(key));
    }
    columns.add(coalesce(from("s", ROWS, kept), lit(0L)).plus(col("c." + ROWS)).as(ROWS));
    Column lost = lit(false);
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      if (output.merge() == null) {
        continue;
      }
      Column inView = from("v", Identifiers.quote(output.name()), held).cast(output.type());
      Column count = fromView ? (output.merge() == Merge.COUNT ? inView : when(inView.isNotNull(), lit(1L)))
          : from("s", n(j), kept);
      switch (output.merge()) {
        case COUNT -> columns.add(coalesce(count, lit(0L)).plus(col("c." + n(j))).as(n(j)));
        case DISTINCT -> columns.add(coalesce(count, lit(0L)).plus(coalesce(col("c." + a(j)), lit(0L))).as(n(j)));
        case SUM, AVG -> {
          DataType type = stateSumType(output);
          columns.add(coalesce(count, lit(0L)).plus(col("c." + n(j))).as(n(j)));
          Column zero = lit(0).cast(type);
          Column sum = fromView ? inView : from("s", s(j), kept);
          columns.add(coalesce(sum.cast(type), zero).plus(coalesce(col("c." + a(j)), zero))
              .minus(coalesce(col("c." + d(j)), zero)).cast(type).as(s(j)));
        }
        case MIN, MAX -> {
          Column value = inView;
          Column taken = col("c." + d(j));
          boolean isMin = output.merge() == Merge.MIN;
          lost = lost.or(taken.isNotNull().and(value.isNull().or(isMin ? taken.leq(value) : taken.geq(value))));
          columns.add((isMin ? least(value, col("c." + a(j))) : greatest(value, col("c." + a(j)))).as(v(j)));
        }
      }
    }
    columns.add(lost.as(LOST));
    return columns.toArray(Column[]::new);
  }

  /** Column {@code name} of the rows aliased {@code alias}, or NULL where there are none. */
  private static Column from(String alias, String name, boolean present) {
    return present ? col(alias + "." + name) : lit(null);
  }

  /**
   * The query over the input's rows of the groups in {@code keys} alone (its key columns as the
   * view's): the new rows of groups whose {@code min} or {@code max} went.
   */
  Dataset<Row> recomputed(SparkSession spark, Dataset<Row> keys) {
    LogicalPlan keyPlan = keys.queryExecution().analyzed();
    List<Attribute> keyColumns = CollectionConverters.asJava(keyPlan.output());
    List<Output> keyed = outputs.stream().filter(o -> o.key() != null).toList();
    Expression match = Literal.TrueLiteral();
    for (int i = 0; i < keyed.size(); i++) {
      match = new And(match, new EqualNullSafe(keyed.get(i).key(), keyColumns.get(i)));
    }
    Join rowsOfKeys = new Join(aggregate.child(), keyPlan, LeftSemi$.MODULE$, Option.apply(match), JoinHint$.MODULE$.NONE());
    return SparkPlans.ofRows(spark, aggregate.withNewChildren(Scala.seq(List.of(rowsOfKeys))));
  }

  /** The state's columns of {@link #merged} rows. */
  Column[] state() {
    List<Column> columns = new ArrayList<>();
    keys().forEach(key -> columns.add(col(Identifiers.quote(key))));
    columns.add(col(ROWS));
    for (int j = 0; j < outputs.size(); j++) {
      Merge merge = outputs.get(j).merge();
      if (merge == Merge.COUNT || merge == Merge.SUM || merge == Merge.AVG || merge == Merge.DISTINCT) {
        columns.add(col(n(j)));
      }
      if (merge == Merge.SUM || merge == Merge.AVG) {
        columns.add(col(s(j)));
      }
    }
    return columns.toArray(Column[]::new);
  }

  /** The view's columns of {@link #merged} rows, in its order and types. */
  Column[] view() {
    List<Column> columns = new ArrayList<>();
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      Column value = output.merge() == null ? col(Identifiers.quote(output.name())) : switch (output.merge()) {
        case COUNT, DISTINCT -> col(n(j));
        case SUM -> when(col(n(j)).gt(0), col(s(j)));
        case AVG -> AverageState.of((Average) output.call().aggregateFunction(), s(j), n(j));
        case MIN, MAX -> col(v(j));
      };
      columns.add(value.cast(output.type()).as(output.name()));
    }
    return columns.toArray(Column[]::new);
  }

  /** The type a sum or average keeps its sum in: the sum's own, or the average's ({@link AverageState}). */
  private static DataType stateSumType(Output output) {
    return output.call().aggregateFunction() instanceof Average average ? AverageState.sumType(average)
        : output.call().dataType();
  }

  /**
   * The values whose count per group a {@code count(DISTINCT ...)} column keeps, named
   * {@value #VALUE}: its one argument, or a struct of its arguments; NULL where it does not count
   * the row (an argument is NULL). Empty when the view has no such column.
   */
  Optional<Column> distinctValue() {
    return outputs.stream().filter(o -> o.merge() == Merge.DISTINCT).findFirst().map(o -> {
      List<Column> arguments = CollectionConverters.asJava(o.call().aggregateFunction().children()).stream()
          .map(ExpressionUtils::column).toList();
      Column value = arguments.size() == 1 ? arguments.get(0) : struct(arguments.toArray(Column[]::new));
      return when(counted(o.call()), value).as(VALUE);
    });
  }

  /**
   * The columns of {@link #change} rolled up from groups of keys and {@link #distinctValue} to
   * groups of keys, with {@code a<j>} of the {@code count(DISTINCT ...)} column the sum of
   * {@code valuesGained}: the values that came to the group less those that left it.
   */
  Column[] rolledUp(Column valuesGained) {
    List<Column> columns = new ArrayList<>();
    columns.add(sum(col(ROWS)).as(ROWS));
    for (int j = 0; j < outputs.size(); j++) {
      Merge merge = outputs.get(j).merge();
      if (merge == Merge.DISTINCT) {
        columns.add(sum(valuesGained).as(a(j)));
      } else if (merge != null) {
        if (merge == Merge.COUNT || merge == Merge.SUM || merge == Merge.AVG) {
          columns.add(sum(col(n(j))).as(n(j)));
        }
        if (merge != Merge.COUNT) {
          columns.add(merge.of(col(a(j))).as(a(j)));
          columns.add(merge.of(col(d(j))).as(d(j)));
        }
      }
    }
    return columns.toArray(Column[]::new);
  }

  /** Whether the aggregate takes the row: all its arguments are set (count) or its one is, and its FILTER holds. */
  private static Column counted(AggregateExpression call) {
    Column counted = lit(true);
    for (Expression argument : CollectionConverters.asJava(call.aggregateFunction().children())) {
      counted = counted.and(ExpressionUtils.column(argument).isNotNull());
    }
    if (call.filter().isDefined()) {
      counted = counted.and(coalesce(ExpressionUtils.column(call.filter().get()), lit(false)));
    }
    return counted;
  }

  private static String n(int j) {
    return "__sluice_n" + j;
  }

  private static String s(int j) {
    return "__sluice_s" + j;
  }

  private static String a(int j) {
    return "__sluice_a" + j;
  }

  private static String d(int j) {
    return "__sluice_d" + j;
  }

  private static String v(int j) {
    return "__sluice_v" + j;
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
