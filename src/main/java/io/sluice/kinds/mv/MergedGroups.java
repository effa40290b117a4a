package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;

import io.sluice.common.Identifiers;
import io.sluice.execution.DeltaTarget;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * {@link Technique#GROUP_AGGREGATE}: the groups the appended rows touch, each merged with the
 * view's row for it, replace those rows; the view's other rows are not read beyond their keys.
 */
final class MergedGroups {
  private MergedGroups() {}

  static void refresh(SparkSession spark, LogicalPlan analyzed, GroupColumns groups, List<InputChange> changes,
      DeltaTarget view, RefreshCommit commit) {
    Dataset<Row> added = ChangePlan.overAppended(spark, analyzed, changes).as("a");
    Dataset<Row> held = view.readPinned(spark).as("v");
    Dataset<Row> merged = added.join(held, groups.sameGroup(), "left").select(groups.merged().toArray(Column[]::new)).persist();
    try {
      Column[] keys = groups.keys().stream().map(k -> col(Identifiers.quote(k))).toArray(Column[]::new);
      commit.replace(merged, merged.select(keys), groups.keys());
    } finally {
      merged.unpersist();
    }
  }
}
