package io.sluice.kinds.mv;

import io.sluice.common.SparkErrors;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.DeltaTarget;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.FlowConf;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.RefreshPolicy;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * What a view's definition allows its refreshes, in words for {@code sluice dry-run}: the
 * techniques its query and policy leave, and when each applies; or why only a full recompute can
 * refresh it. What a given refresh takes also depends on what its inputs did, which the planning
 * event of each refresh tells.
 */
public final class RefreshOptions {
  private RefreshOptions() {}

  public static String describe(ResolvedFlow flow, DatasetDefinition view) {
    if (view.refreshPolicy() == RefreshPolicy.FULL) {
      return "REFRESH POLICY FULL: recomputed whenever an input changed";
    }
    QueryShape shape = QueryShape.ofStandIns(flow.analyzed());
    List<String> techniques = new ArrayList<>();
    add(techniques, shape.appendOnly(), "APPEND_ONLY after appends");
    add(techniques, shape.rowBased(), "ROW_BASED after deletes and updates");
    add(techniques, shape.windowFunction(), "WINDOW_FUNCTION after any change");
    add(techniques, shape.groupAggregate(), "GROUP_AGGREGATE after any change" + (shape.groups() != null
        && shape.groups().hasExtremes() ? " (a group that loses its min or max is recomputed)" : ""));
    GroupKeys.Traced partitioned = MaterializedViewExecutor.partitionKeys(view, shape);
    if (partitioned.keys() != null) {
      techniques.add("PARTITION_OVERWRITE after any change if its input is partitioned by "
          + String.join(", ", partitioned.keys().inputColumns()));
    }
    if (view.refreshPolicy().requiresIncremental()) {
      add(techniques, shape.genericAggregate(), "GENERIC_AGGREGATE");
    }
    if (techniques.isEmpty()) {
      return "recomputed in full: " + shape.neverIncremental().or(shape::genericAggregate)
          .map(IncrementalizationIssue::reason).orElse("no technique applies");
    }
    return "refreshed by " + String.join(", ", techniques) + ", else recomputed";
  }

  /**
   * How a view's refresh would go if an update ran now.
   *
   * @param technique the technique it would take; empty when that cannot be said (a job failed)
   * @param sentence the technique and why, or why it cannot be said
   */
  public record NextRefresh(Optional<String> technique, String sentence) {}

  /**
   * How the view's refresh would go if an update ran now, from its query over its inputs' current
   * versions and its own last refresh (a view never refreshed is computed in full). Reads logs and,
   * for a join or window, the changed rows' keys; writes nothing.
   */
  public static NextRefresh now(SparkSession spark, Checkpoints checkpoints, ResolvedGraph graph, ResolvedFlow flow,
      DatasetDefinition view) {
    String table = view.name().quoted();
    if (!spark.catalog().tableExists(table)) {
      return new NextRefresh(Optional.of(Technique.COMPLETE_RECOMPUTE.name()),
          "would refresh now by COMPLETE_RECOMPUTE, its first refresh");
    }
    try {
      FlowResolution tables = new FlowResolution(spark, graph.graph(), flow.definition(),
          (dataset, streaming) -> spark.table(dataset.name().quoted()));
      RefreshPlan plan = FlowConf.withSqlConf(spark, flow.definition().sqlConf(), () -> {
        LogicalPlan analyzed = flow.definition().query().build(tables).queryExecution().analyzed();
        return MaterializedViewExecutor.plan(spark, GroupState.Tables.in(checkpoints.viewState(view.name())), view, flow.definition(), graph.schemas().get(view.name()), analyzed,
            QueryShape.of(analyzed), DeltaTarget.table(view.name()).latest(spark));
      });
      return new NextRefresh(Optional.of(plan.technique().name()),
          "would " + plan.summary().replaceFirst("^refresh: ", "refresh now by "));
    } catch (Exception e) { // Spark's job failures are checked exceptions, thrown undeclared
      return new NextRefresh(Optional.empty(), "cannot say how it would refresh now: " + SparkErrors.firstLine(e));
    }
  }

  private static void add(List<String> techniques, Optional<IncrementalizationIssue> issue, String technique) {
    if (issue.isEmpty()) {
      techniques.add(technique);
    }
  }
}
