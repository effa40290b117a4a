package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.not;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import io.sluice.execution.DeltaTarget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@link Technique#GROUP_AGGREGATE}, and the full recompute of a view that keeps a group state
 * ({@link GroupState}). The rows the aggregate's input gains and loses are aggregated per group
 * with their sign, merged with what each touched group kept, and the touched groups' rows and
 * state replace theirs: a group left with no row goes, one that lost its {@code min} or
 * {@code max} is recomputed from the input's rows of that group alone. A view with a
 * {@code count(DISTINCT ...)} column aggregates the change per group and value first, to merge
 * each value's count ({@link DistinctValues}), then per group.
 */
final class MergedGroups {
  /** The most bytes of changed input files and of the view's files merged in one task. */
  private static final long ONE_TASK_BYTES = 8L << 20;
  private final SparkSession spark;
  private final GroupColumns groups;
  private final GroupState.Tables state;
  private final RefreshCommit commit;
  private final List<Dataset<Row>> cached = new ArrayList<>();

  private MergedGroups(SparkSession spark, GroupColumns groups, GroupState.Tables state, RefreshCommit commit) {
    this.spark = spark;
    this.groups = groups;
    this.state = state;
    this.commit = commit;
  }

  /**
   * Merges {@code plan}'s change into the groups it touches: from the view's own rows when the
   * plan leaves the group state behind (appends to count, sum, min and max), else from the state
   * as the plan says it stands.
   */
  static void refresh(SparkSession spark, GroupColumns groups, RefreshPlan plan, GroupState.Tables state,
      DeltaTarget view, RefreshCommit commit) {
    boolean retracting = plan.changes().stream().anyMatch(c -> c.kind() == InputChange.Kind.CHANGED);
    Dataset<Row> signed = ChangePlan.of(spark, groups.aggregate().child(), plan.changes()).signed();
    MergedGroups merge = new MergedGroups(spark, groups, state, commit);
    if (plan.next().stateBehind().isPresent()) {
      long changedBytes = plan.changes().stream().mapToLong(InputChange::changedBytes).sum();
      merge.mergeIntoView(signed, view.readPinned(spark), changedBytes + commit.viewBytes() <= ONE_TASK_BYTES);
    } else {
      merge.write(signed, plan.stateFrom(), groups.hasExtremes() ? view.readPinned(spark) : null, retracting);
    }
  }

  /** Computes the view and its state afresh, in one pass over its input. */
  static void recompute(SparkSession spark, GroupColumns groups, GroupState.Tables state, RefreshCommit commit) {
    new MergedGroups(spark, groups, state, commit)
        .write(SparkPlans.ofRows(spark, groups.aggregate().child()), Optional.empty(), null, false);
  }

  /**
   * Merges appended rows into the view's rows of their groups ({@code held}): one commit, the
   * state left as it is. A small change ({@code inOneTask}) is aggregated and joined with the
   * view's rows in one partition: one Spark job with no shuffle, where spreading it over the
   * cores took four (a stage each, and the view's rows broadcast).
   */
  private void mergeIntoView(Dataset<Row> appended, Dataset<Row> held, boolean inOneTask) {
    List<String> keys = groups.keys();
    Column[] change = groups.change(null);
    Dataset<Row> changed = (inOneTask ? appended.coalesce(1) : appended).groupBy(groups.keyValues())
        .agg(change[0], rest(change)).as("c");
    Dataset<Row> rows = inOneTask ? held.coalesce(1).hint("shuffle_hash") : held;
    try {
      Dataset<Row> merged = cache(changed.join(rows.as("v"), GroupColumns.sameValues("c", "v", keys), "left")
          .select(groups.mergedFromView()));
      commit.replace(merged.select(groups.view()), merged.select(names(keys)), keys);
    } finally {
      cached.forEach(Dataset::unpersist);
    }
  }

  private void write(Dataset<Row> signed, Optional<Long> lastRefresh, Dataset<Row> held, boolean retracting) {
    List<String> keys = groups.keys();
    Column[] change = groups.change(retracting ? col(ChangePlan.SIGN) : null);
    Optional<Column> distinct = groups.distinctValue();
    try {
      Dataset<Row> changed;
      Dataset<Row> values = null;
      if (distinct.isPresent()) {
        List<Column> by = new ArrayList<>(Arrays.asList(groups.keyValues()));
        by.add(distinct.get());
        Dataset<Row> perValue = signed.groupBy(by.toArray(Column[]::new)).agg(change[0], rest(change));
        values = cache(DistinctValues.merged(perValue, lastRefresh.map(r -> state.values().read(spark, r)).orElse(null), keys));
        Column[] rolledUp = groups.rolledUp(col(DistinctValues.GAINED));
        changed = values.groupBy(names(keys)).agg(rolledUp[0], rest(rolledUp));
      } else {
        changed = signed.groupBy(groups.keyValues()).agg(change[0], rest(change));
      }
      Dataset<Row> merged = changed.as("c");
      Dataset<Row> kept = lastRefresh.map(r -> state.groups().read(spark, r)).orElse(null);
      if (kept != null) {
        merged = merged.join(kept.as("s"), GroupColumns.sameValues("c", "s", keys), "left");
      }
      if (held != null) {
        merged = merged.join(held.as("v"), GroupColumns.sameValues("c", "v", keys), "left");
      }
      merged = cache(merged.select(groups.merged(kept != null, held != null)));
      // A GROUP BY without keys has its one row even over no input row.
      Dataset<Row> live = keys.isEmpty() ? merged : merged.where(col(GroupColumns.ROWS).gt(0));
      Dataset<Row> rows = live.where(not(col(GroupColumns.LOST))).select(groups.view());
      if (retracting && groups.hasExtremes()) {
        List<Row> lost = live.where(col(GroupColumns.LOST)).select(names(keys)).collectAsList();
        if (!lost.isEmpty()) {
          rows = rows.unionByName(groups.recomputed(spark, spark.createDataFrame(lost, live.select(names(keys)).schema())));
        }
      }
      Dataset<Row> groupState = live.select(groups.state());
      Dataset<Row> valueCounts = values;
      if (kept == null || keys.isEmpty()) {
        commit.beforeCommit(() -> {
          state.groups().overwrite(spark, groupState, commit.tag());
          if (valueCounts != null) {
            state.values().overwrite(spark, DistinctValues.counts(valueCounts, keys), commit.tag());
          }
        });
        commit.overwrite(rows);
      } else {
        Dataset<Row> touched = merged.select(names(keys));
        commit.beforeCommit(() -> {
          state.groups().replace(spark, groupState, touched, keys, commit.tag());
          if (valueCounts != null) {
            state.values().replace(spark, DistinctValues.counts(valueCounts, keys), DistinctValues.touched(valueCounts, keys),
                DistinctValues.valueKeys(keys), commit.tag());
          }
        });
        commit.replace(rows, touched, keys);
      }
    } finally {
      cached.forEach(Dataset::unpersist);
    }
  }

  private Dataset<Row> cache(Dataset<Row> rows) {
    cached.add(rows.persist());
    return rows;
  }

  private static Column[] rest(Column[] columns) {
    return Arrays.copyOfRange(columns, 1, columns.length);
  }

  private static Column[] names(List<String> keys) {
    return keys.stream().map(k -> col(Identifiers.quote(k))).toArray(Column[]::new);
  }
}
