package io.sluice.kinds.mv;

import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.optimizer.PullupCorrelatedPredicates$;
import org.apache.spark.sql.catalyst.optimizer.RewritePredicateSubquery$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A query's {@code IN (SELECT ...)} and {@code EXISTS (SELECT ...)} filters as the semi and anti
 * joins they mean, as Spark's optimizer rewrites them: a change then goes through them as through
 * any join. A subquery elsewhere (a scalar subquery, one under OR) stays an expression, which
 * {@link QueryShape} counts as varying.
 */
final class SubqueryJoins {
  private SubqueryJoins() {}

  /** {@code analyzed} with its predicate subqueries rewritten as joins; unchanged if they cannot be. */
  static LogicalPlan of(LogicalPlan analyzed) {
    if (!analyzed.exists(node -> node.expressions().exists(e -> e.exists(SubqueryExpression.class::isInstance)))) {
      return analyzed;
    }
    try {
      return RewritePredicateSubquery$.MODULE$.apply(PullupCorrelatedPredicates$.MODULE$.apply(analyzed));
    } catch (RuntimeException e) {
      // A shape the optimizer's rules do not take: the subqueries stay, and the view is recomputed.
      return analyzed;
    }
  }
}
