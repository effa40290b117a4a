package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.DeltaTarget;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ResolvedGraph;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * What was changed behind the pipeline's back since its last update (SEMANTICS §7.4): a
 * table dropped while its flows' checkpoints remain (they would go on from where they were,
 * into an empty table, for good), and a checkpoint deleted while its table keeps the rows it
 * wrote (the flow would read its source from the start and append every row again).
 */
final class LostState {
  private LostState() {}

  /** The tables whose flows kept checkpoints, and which the catalog no longer has: rebuilt as a full refresh. */
  static Set<DatasetName> droppedTables(SparkSession spark, ResolvedGraph graph, Checkpoints checkpoints) {
    Set<DatasetName> dropped = new LinkedHashSet<>();
    for (DatasetDefinition table : graph.graph().datasets().values()) {
      if (table.type().isTable() && checkpoints.anyStarted(table.name())
          && !spark.catalog().tableExists(table.name().quoted())) {
        dropped.add(table.name());
      }
    }
    return dropped;
  }

  /** Refuses to run a flow whose checkpoint was deleted into a table that holds rows, unless that table is cleared. */
  static void refuseLostCheckpoints(SparkSession spark, ResolvedGraph graph, Checkpoints checkpoints, RefreshSelection selection) {
    for (ResolvedFlow flow : graph.flows()) {
      DatasetDefinition target = graph.dataset(flow.target());
      if (!target.type().isTable() || !selection.runs(target) || selection.cleared().contains(target.name())
          || !checkpoints.lost(target.name(), flow.name())) {
        continue;
      }
      if (spark.catalog().tableExists(target.name().quoted()) && !DeltaTarget.table(target.name()).isEmpty(spark)) {
        throw new SluiceException(ErrorClass.CHECKPOINT_LOST, flow.definition().origin(), "the checkpoint of flow '"
            + flow.name() + "' was deleted, but '" + target.name() + "' still holds the rows it wrote: the flow would"
            + " read its sources from the start and write them again; rebuild the table with --full-refresh "
            + target.name().name());
      }
    }
  }
}
