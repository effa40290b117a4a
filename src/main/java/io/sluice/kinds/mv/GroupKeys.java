package io.sluice.kinds.mv;

import io.sluice.common.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.View;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The groups of a view whose query is one GROUP BY over one input, at the top or under projections
 * and filters (a HAVING): each group key is a column of the view and, unchanged, a column of the
 * input. The groups a change touches are then
 * the key values of its rows, and they alone are recomputed from the input's rows with those
 * values, whatever the aggregates.
 *
 * @param viewColumns the view's key columns
 * @param inputColumns the input's columns they are, in the same order
 */
record GroupKeys(List<String> viewColumns, List<String> inputColumns) {
  GroupKeys {
    viewColumns = List.copyOf(viewColumns);
    inputColumns = List.copyOf(inputColumns);
  }

  /**
   * The keys of {@code aggregate} traced up to the columns of {@code top} (the query, the aggregate
   * itself or the projections and filters over it) and down to its one input, or why they cannot be.
   */
  static Traced of(Aggregate aggregate, LogicalPlan top, Predicate<LogicalPlan> isInput) {
    List<String> view = new ArrayList<>();
    List<String> input = new ArrayList<>();
    List<NamedExpression> columns = CollectionConverters.asJava(aggregate.aggregateExpressions());
    for (Expression group : CollectionConverters.asJava(aggregate.groupingExpressions())) {
      Optional<NamedExpression> column = columns.stream()
          .filter(c -> (c instanceof Alias alias ? alias.child() : (Expression) c).semanticEquals(group)).findFirst();
      Optional<String> named = column.flatMap(c -> viewName(c.exprId(), aggregate, top));
      if (named.isEmpty()) {
        return Traced.not("GROUP BY " + group.sql() + " is not a column of the view: its groups cannot be found again");
      }
      Optional<String> source = group instanceof Attribute attribute ? trace(attribute, aggregate.child(), isInput) : Optional.empty();
      if (source.isEmpty()) {
        return Traced.not("GROUP BY " + group.sql() + " is not a column of its one input, unchanged: the groups a change"
            + " touches cannot be told from the changed rows");
      }
      view.add(named.get());
      input.add(source.get());
    }
    return new Traced(new GroupKeys(view, input), null);
  }

  /**
   * The keys that are the view's {@code columns} (its partition columns, say), in their order, or
   * why some is not a key.
   */
  Traced restrictedTo(List<String> columns) {
    List<String> view = new ArrayList<>();
    List<String> input = new ArrayList<>();
    for (String column : columns) {
      int at = -1;
      for (int i = 0; i < viewColumns.size() && at < 0; i++) {
        at = Identifiers.sameColumn(viewColumns.get(i), column) ? i : -1;
      }
      if (at < 0) {
        return Traced.not("the view is partitioned by " + Identifiers.quote(column) + ", which is not a GROUP BY column"
            + " of its input's: a partition of the view is not made of partitions of the input");
      }
      view.add(viewColumns.get(at));
      input.add(inputColumns.get(at));
    }
    return new Traced(new GroupKeys(view, input), null);
  }

  /** The keys, or the reason there are none. */
  record Traced(GroupKeys keys, String whyNot) {
    static Traced not(String reason) {
      return new Traced(null, reason);
    }
  }

  /** Whether {@code plan} passes its one child's rows on, each alone or not at all, as a projection or filter does. */
  static boolean passesRows(LogicalPlan plan) {
    return plan instanceof Project || plan instanceof Filter || plan instanceof SubqueryAlias || plan instanceof View;
  }

  /**
   * The name of {@code top}'s column that is {@code aggregate}'s column {@code id}, passed on
   * unchanged (renamed at most) by the nodes between them: empty if none is.
   */
  private static Optional<String> viewName(ExprId id, Aggregate aggregate, LogicalPlan top) {
    List<LogicalPlan> above = new ArrayList<>();
    for (LogicalPlan node = top; node != aggregate; node = node.children().head()) {
      above.add(node);
    }
    ExprId current = id;
    for (int i = above.size() - 1; i >= 0; i--) {
      if (above.get(i) instanceof Project project) {
        ExprId passed = current;
        Optional<NamedExpression> kept = CollectionConverters.asJava(project.projectList()).stream()
            .filter(c -> (c instanceof Alias alias ? alias.child() : c) instanceof Attribute a && a.exprId().equals(passed))
            .findFirst();
        if (kept.isEmpty()) {
          return Optional.empty();
        }
        current = kept.get().exprId();
      }
    }
    ExprId found = current;
    return CollectionConverters.asJava(top.output()).stream().filter(a -> a.exprId().equals(found)).findFirst()
        .map(Attribute::name);
  }

  /** The input column {@code attribute} is, through renames, filters and aliases, over one input: empty if it is computed. */
  private static Optional<String> trace(Attribute attribute, LogicalPlan plan, Predicate<LogicalPlan> isInput) {
    if (plan instanceof Project project) {
      for (NamedExpression column : CollectionConverters.asJava(project.projectList())) {
        if (column.exprId().equals(attribute.exprId())) {
          Expression value = column instanceof Alias alias ? alias.child() : (Expression) column;
          return value instanceof Attribute source ? trace(source, project.child(), isInput) : Optional.empty();
        }
      }
      return Optional.empty();
    }
    if (!(plan instanceof Project) && passesRows(plan)) {
      return trace(attribute, plan.children().head(), isInput);
    }
    if (plan.children().isEmpty() && isInput.test(plan)) {
      return CollectionConverters.asJava(plan.output()).stream().filter(a -> a.exprId().equals(attribute.exprId()))
          .findFirst().map(Attribute::name);
    }
    return Optional.empty();
  }
}
