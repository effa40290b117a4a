package io.sluice.kinds.mv;

import io.sluice.common.Identifiers;
import io.sluice.execution.SourceFingerprint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OneRowRelation;
import org.apache.spark.sql.catalyst.plans.logical.Range;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.Window;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * What a view's query allows, whatever its inputs did: which techniques could ever refresh it,
 * and for each that cannot, why (the operator, the function, the input). Read from the query's
 * analyzed plan; the same for a plan over the real tables and one over stand-ins.
 */
final class QueryShape {
  private final LogicalPlan joined;
  private final Optional<IncrementalizationIssue> variable;
  private final Optional<IncrementalizationIssue> appendOnly;
  private final Optional<IncrementalizationIssue> groupAggregate;
  private final GroupColumns groups;
  private final Optional<IncrementalizationIssue> rowBased;
  private final Optional<IncrementalizationIssue> genericAggregate;
  private final Optional<IncrementalizationIssue> windowFunction;
  private final GroupKeys keys;
  private final boolean groupedAtTop;

  private QueryShape(LogicalPlan joined, Optional<IncrementalizationIssue> variable, Optional<IncrementalizationIssue> appendOnly,
      Optional<IncrementalizationIssue> groupAggregate, GroupColumns groups, Optional<IncrementalizationIssue> genericAggregate,
      GroupKeys keys, boolean groupedAtTop, Optional<IncrementalizationIssue> rowBased,
      Optional<IncrementalizationIssue> windowFunction) {
    this.joined = joined;
    this.rowBased = rowBased;
    this.windowFunction = windowFunction;
    this.genericAggregate = genericAggregate;
    this.keys = keys;
    this.groupedAtTop = groupedAtTop;
    this.variable = variable;
    this.appendOnly = appendOnly;
    this.groupAggregate = groupAggregate;
    this.groups = groups;
  }

  /** The shape of a query over the real tables, at a refresh. */
  static QueryShape of(LogicalPlan analyzed) {
    return of(analyzed, QueryShape::isDelta);
  }

  /**
   * The shape of a query as the graph's validation analyzed it, with an empty relation standing
   * in for each of the pipeline's tables (VALUES cannot be empty, so it is one).
   */
  static QueryShape ofStandIns(LogicalPlan analyzed) {
    return of(analyzed, node -> isDelta(node) || node instanceof LocalRelation local && local.data().isEmpty());
  }

  private static QueryShape of(LogicalPlan query, Predicate<LogicalPlan> isInput) {
    // IN and EXISTS as the joins they are; a subquery left in an expression counts as varying.
    LogicalPlan analyzed = SubqueryJoins.of(query);
    // An ORDER BY of the whole query says nothing of which rows the view holds.
    LogicalPlan top = withoutOrder(analyzed);
    Optional<IncrementalizationIssue> variable = variable(analyzed).or(() -> notDelta(analyzed, isInput));
    Optional<IncrementalizationIssue> derivable = variable.or(() -> top instanceof Aggregate
        ? Optional.of(issue("an aggregate")) : ChangePlan.unsupported(top, isInput).map(QueryShape::unsupported));
    boolean windowed = top.exists(Window.class::isInstance);
    Optional<IncrementalizationIssue> rows = derivable.or(() -> windowed ? Optional.of(unsupported(
        "it has a window function: a new row changes the other rows of its partition")) : Optional.empty());
    Optional<IncrementalizationIssue> grouped;
    Optional<IncrementalizationIssue> regrouped;
    GroupColumns groups = null;
    GroupKeys keys = null;
    Optional<Aggregate> below = top instanceof Aggregate ? Optional.empty() : aggregateUnderRows(top);
    if (variable.isPresent()) {
      grouped = variable;
      regrouped = variable;
    } else if (top instanceof Aggregate aggregate) {
      grouped = rowsOnly(aggregate.child(), isInput);
      regrouped = grouped;
      if (grouped.isEmpty()) {
        GroupColumns.Shaped shaped = GroupColumns.of(aggregate);
        groups = shaped.columns();
        grouped = Optional.ofNullable(shaped.whyNot())
            .map(why -> new IncrementalizationIssue(IncrementalizationIssue.AGGREGATE_NOT_SUPPORTED, why));
        GroupKeys.Traced traced = GroupKeys.of(aggregate, aggregate, isInput);
        keys = traced.keys();
        regrouped = Optional.ofNullable(traced.whyNot())
            .map(why -> new IncrementalizationIssue(IncrementalizationIssue.AGGREGATE_NOT_SUPPORTED, why));
      }
    } else if (below.isPresent()) {
      // A HAVING, or columns computed from the groups' values: each group still gives its own row or none.
      grouped = Optional.of(new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED,
          "its GROUP BY is under a projection or filter (HAVING, columns computed from the aggregates): the groups"
              + " are recomputed, not merged"));
      regrouped = rowsOnly(below.get().child(), isInput);
      if (regrouped.isEmpty()) {
        GroupKeys.Traced traced = GroupKeys.of(below.get(), top, isInput);
        keys = traced.keys();
        regrouped = Optional.ofNullable(traced.whyNot())
            .map(why -> new IncrementalizationIssue(IncrementalizationIssue.AGGREGATE_NOT_SUPPORTED, why));
      }
    } else {
      grouped = Optional.of(new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED,
          "the query is not one GROUP BY at its top"));
      regrouped = grouped;
    }
    Optional<IncrementalizationIssue> matched = rows.or(() -> unmatchable(analyzed.schema()));
    Optional<IncrementalizationIssue> windows = derivable.or(() -> windowed ? unmatchable(analyzed.schema())
        : Optional.of(unsupported("it has no window function")));
    return new QueryShape(analyzed, variable, rows, grouped, groups, regrouped, keys, top instanceof Aggregate || below.isPresent(),
        matched, windows);
  }

  /** A column whose values do not compare exactly (floating point, maps), if any: rows cannot be matched by it. */
  private static Optional<IncrementalizationIssue> unmatchable(StructType columns) {
    for (StructField column : columns.fields()) {
      if (inexact(column.dataType())) {
        return Optional.of(new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, "column "
            + Identifiers.quote(column.name()) + " is " + column.dataType().sql() + ", whose values cannot be matched exactly"));
      }
    }
    return Optional.empty();
  }

  private static boolean inexact(DataType type) {
    if (type instanceof StructType struct) {
      return Arrays.stream(struct.fields()).anyMatch(f -> inexact(f.dataType()));
    }
    if (type instanceof ArrayType array) {
      return inexact(array.elementType());
    }
    return type instanceof MapType || type instanceof FloatType || type instanceof DoubleType;
  }

  /** The aggregate under projections and filters only, at the top of {@code plan}, if there is one. */
  private static Optional<Aggregate> aggregateUnderRows(LogicalPlan plan) {
    if (plan instanceof Aggregate aggregate) {
      return Optional.of(aggregate);
    }
    return GroupKeys.passesRows(plan) ? aggregateUnderRows(plan.children().head()) : Optional.empty();
  }

  private static LogicalPlan withoutOrder(LogicalPlan plan) {
    return plan instanceof Sort sort && sort.global() ? withoutOrder(sort.child()) : plan;
  }

  /** The query with its IN and EXISTS subqueries as the semi and anti joins they are: the plan a change is derived through. */
  LogicalPlan joined() {
    return joined;
  }

  /** Why the query's result may differ between two reads of the same inputs, if it may: no technique but a full recompute then. */
  Optional<IncrementalizationIssue> variable() {
    return variable;
  }

  /** Why new rows alone cannot give the view's new rows, if they cannot. */
  Optional<IncrementalizationIssue> appendOnly() {
    return appendOnly;
  }

  /** Why the view's groups cannot be merged with the groups of new rows, if they cannot. */
  Optional<IncrementalizationIssue> groupAggregate() {
    return groupAggregate;
  }

  /** The group keys and merged aggregates; null when {@link #groupAggregate} says why not. */
  GroupColumns groups() {
    return groups;
  }

  /** Why the rows a change adds and takes away cannot be matched with the view's rows by value, if they cannot. */
  Optional<IncrementalizationIssue> rowBased() {
    return rowBased;
  }

  /** Why the partitions of its windows that a change touches cannot be recomputed alone, if they cannot. */
  Optional<IncrementalizationIssue> windowFunction() {
    return windowFunction;
  }

  /** Why the groups a change touches cannot be recomputed alone, if they cannot. */
  Optional<IncrementalizationIssue> genericAggregate() {
    return genericAggregate;
  }

  /** The group keys, traced to the input; null when {@link #genericAggregate} says why not. */
  GroupKeys keys() {
    return keys;
  }

  /** Why no incremental technique can ever refresh the view, if none can. */
  Optional<IncrementalizationIssue> neverIncremental() {
    if (appendOnly.isEmpty() || rowBased.isEmpty() || groupAggregate.isEmpty() || genericAggregate.isEmpty()
        || windowFunction.isEmpty()) {
      return Optional.empty();
    }
    // The issue of the technique the query's form points to: a GROUP BY's for an aggregate at the top.
    return Optional.of(groupedAtTop ? genericAggregate.get() : rowBased.get());
  }

  private static Optional<IncrementalizationIssue> variable(LogicalPlan plan) {
    List<Expression> found = new ArrayList<>();
    plan.foreach(node -> {
      node.expressions().foreach(e -> {
        if (found.isEmpty() && e.exists(SourceFingerprint::variesItself)) {
          found.add(innermostVarying(e));
        }
        return BoxedUnit.UNIT;
      });
      return BoxedUnit.UNIT;
    });
    return found.stream().findFirst().map(e -> e instanceof SubqueryExpression
        ? new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, "it has a subquery in an expression"
            + " (a scalar subquery, or IN or EXISTS under OR or NOT), whose change no incremental technique follows")
        : new IncrementalizationIssue(IncrementalizationIssue.NON_DETERMINISTIC_EXPRESSION,
            e.sql() + " may give another value on another read of the same rows"));
  }

  private static Expression innermostVarying(Expression e) {
    for (Expression child : CollectionConverters.asJava(e.children())) {
      if (child.exists(SourceFingerprint::variesItself)) {
        return innermostVarying(child);
      }
    }
    return e;
  }

  private static Optional<IncrementalizationIssue> notDelta(LogicalPlan plan, Predicate<LogicalPlan> isInput) {
    List<String> found = new ArrayList<>();
    plan.foreach(node -> {
      if (found.isEmpty() && node.children().isEmpty() && !isInput.test(node)
          && !(node instanceof LocalRelation || node instanceof OneRowRelation || node instanceof Range)) {
        found.add(node.nodeName());
      }
      return BoxedUnit.UNIT;
    });
    return found.stream().findFirst().map(name -> new IncrementalizationIssue(IncrementalizationIssue.INPUT_NOT_DELTA,
        "it reads a source that is not a Delta table (" + name + "): what changed in it cannot be read"));
  }

  static boolean isDelta(LogicalPlan node) {
    return node instanceof LogicalRelation relation && relation.relation() instanceof HadoopFsRelation files
        && files.location() instanceof TahoeLogFileIndex;
  }

  /** The first operator that does not map each input row to output rows of its own, if any. */
  private static Optional<IncrementalizationIssue> rowsOnly(LogicalPlan plan, Predicate<LogicalPlan> isInput) {
    if (plan.children().isEmpty()) {
      return isInput.test(plan) ? Optional.empty()
          : Optional.of(new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED,
              "it reads constant rows (VALUES, range()), which every refresh would add again"));
    }
    if (!(GroupKeys.passesRows(plan) || plan instanceof Union)) {
      return Optional.of(issue(describe(plan)));
    }

    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      Optional<IncrementalizationIssue> below = rowsOnly(child, isInput);
      if (below.isPresent()) {
        return below;
      }
    }
    return Optional.empty();
  }

  private static IncrementalizationIssue unsupported(String reason) {
    return new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, reason);
  }

  private static IncrementalizationIssue issue(String operator) {
    return new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED,
        "it has " + operator + ", which new rows alone do not give the result of");
  }

  /** The operator in words, for a reason: "a LIMIT". */
  static String describe(LogicalPlan node) {
    return switch (node.nodeName()) {
      case "Join" -> "a join";
      case "Window" -> "a window function";
      case "Aggregate" -> "an aggregate below the top of the query";
      case "Distinct", "Deduplicate" -> "DISTINCT (or UNION without ALL)";
      case "GlobalLimit", "LocalLimit", "Tail" -> "a LIMIT";
      case "Sort" -> "an ORDER BY below the top of the query";
      case "Intersect", "Except" -> "INTERSECT or EXCEPT";
      case "Generate" -> "a generator (explode, ...)";
      default -> "the operator " + node.nodeName();
    };
  }
}
