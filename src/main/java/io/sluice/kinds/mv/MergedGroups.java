package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.not;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import io.sluice.execution.DeltaTarget;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@link Technique#GROUP_AGGREGATE}, and the full recompute of a view that keeps a group state
 * ({@link GroupState}). The rows the aggregate's input gains and loses are aggregated per group
 * with their sign, merged with what each touched group kept, and the touched groups' rows and
 * state replace theirs: a group left with no row goes, one that lost its {@code min} or
 * {@code max} is recomputed from the input's rows of that group alone.
 */
final class MergedGroups {
  private MergedGroups() {}

  /** Merges {@code plan}'s change into the groups it touches, from the state the view's last refresh left. */
  static void refresh(SparkSession spark, GroupColumns groups, RefreshPlan plan, long lastRefresh, GroupState state,
      DeltaTarget view, RefreshCommit commit) {
    Dataset<Row> signed = ChangePlan.of(spark, groups.aggregate().child(), plan.changes()).signed();
    Dataset<Row> kept = state.read(spark, lastRefresh);
    Dataset<Row> held = groups.hasExtremes() ? view.readPinned(spark) : null;
    write(spark, groups, signed, kept, held, state, commit, plan.changes().stream().anyMatch(c -> c.kind() == InputChange.Kind.CHANGED));
  }

  /** Computes the view and its state afresh, in one pass over its input. */
  static void recompute(SparkSession spark, GroupColumns groups, GroupState state, RefreshCommit commit) {
    write(spark, groups, SparkPlans.ofRows(spark, groups.aggregate().child()), null, null, state, commit, false);
  }

  private static void write(SparkSession spark, GroupColumns groups, Dataset<Row> signed, Dataset<Row> kept,
      Dataset<Row> held, GroupState state, RefreshCommit commit, boolean retracting) {
    List<String> keys = groups.keys();
    Column[] change = groups.change(retracting ? col(ChangePlan.SIGN) : null);
    Dataset<Row> merged = signed.groupBy(groups.keyValues()).agg(change[0], java.util.Arrays.copyOfRange(change, 1, change.length))
        .as("c");
    if (kept != null) {
      merged = merged.join(kept.as("s"), GroupColumns.sameValues("c", "s", keys), "left");
    }
    if (held != null) {
      merged = merged.join(held.as("v"), GroupColumns.sameValues("c", "v", keys), "left");
    }
    merged = merged.select(groups.merged(kept != null, held != null)).persist();
    try {
      // A GROUP BY without keys has its one row even over no input row.
      Dataset<Row> live = keys.isEmpty() ? merged : merged.where(col(GroupColumns.ROWS).gt(0));
      Dataset<Row> rows = live.where(not(col(GroupColumns.LOST))).select(groups.view());
      if (retracting && groups.hasExtremes()) {
        List<Row> lost = live.where(col(GroupColumns.LOST)).select(names(keys)).collectAsList();
        if (!lost.isEmpty()) {
          rows = rows.unionByName(groups.recomputed(spark, spark.createDataFrame(lost, live.select(names(keys)).schema())));
        }
      }
      Dataset<Row> newState = live.select(groups.state());
      if (kept == null || keys.isEmpty()) {
        commit.beforeCommit(() -> state.overwrite(spark, newState, commit.tag()));
        commit.overwrite(rows);
      } else {
        Dataset<Row> touched = merged.select(names(keys));
        commit.beforeCommit(() -> state.replace(spark, newState, touched, keys, commit.tag()));
        commit.replace(rows, touched, keys);
      }
    } finally {
      merged.unpersist();
    }
  }

  private static Column[] names(List<String> keys) {
    return keys.stream().map(k -> col(Identifiers.quote(k))).toArray(Column[]::new);
  }
}
