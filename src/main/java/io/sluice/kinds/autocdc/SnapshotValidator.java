package io.sluice.kinds.autocdc;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;

/** The checks on an AUTO CDC FROM SNAPSHOT flow that need the whole graph: its target and the flows it shares it with. */
public final class SnapshotValidator {
  private SnapshotValidator() {}

  public static void validate(ResolvedGraph graph, ResolvedFlow flow, FlowMode.AutoCdcFromSnapshot mode) {
    Origin origin = flow.definition().origin();
    String name = "AUTO CDC FROM SNAPSHOT flow '" + flow.name() + "'";
    DatasetDefinition target = AutoCdcValidator.streamingTarget(graph, flow, name);
    AutoCdcColumns columns = AutoCdcColumns.of(flow);
    if (mode.scdType().keepsHistory()) {
      AutoCdcValidator.checkVersionColumns(graph, flow, columns.sequenceType(), "the type of its snapshot versions");
    }
    for (ResolvedFlow other : graph.flowsInto(flow.target())) {
      if (other == flow) {
        continue;
      }
      String otherName = "flow '" + other.name() + "' (" + other.definition().origin() + ")";
      if (!(other.definition().mode() instanceof FlowMode.AutoCdc cdc)) {
        throw new GraphException(ErrorClass.AUTO_CDC_TARGET_SHARED, origin, name + " writes into '" + target.name()
            + "', which " + otherName + " writes too; a snapshot target may only share with AUTO CDC flows"
            + " from a change feed, as SCD type 1");
      }
      AutoCdcColumns otherColumns = AutoCdcColumns.of(other);
      String problem = mode.scdType().keepsHistory() || cdc.scdType().keepsHistory() ? "both must be SCD type 1"
          : !AutoCdcValidator.sameKeys(mode.keys(), cdc.keys()) ? "it uses KEYS (" + String.join(", ", cdc.keys())
              + ") where this flow uses KEYS (" + String.join(", ", mode.keys()) + "); the keys must match, in order"
          : !otherColumns.ignoreNull().isEmpty() ? "it uses IGNORE NULL UPDATES, which a shared target does not allow"
          : cdc.truncateWhen().isPresent() ? "it uses APPLY AS TRUNCATE WHEN, which a shared target does not allow"
          : !otherColumns.sequenceType().equals(columns.sequenceType()) ? "its SEQUENCE BY is of type "
              + otherColumns.sequenceType().sql() + " but this flow's versions are of type "
              + columns.sequenceType().sql() + "; they must be of one type"
          : null;
      if (problem != null) {
        throw new GraphException(ErrorClass.AUTO_CDC_TARGET_SHARED, origin, name + " shares '" + target.name() + "' with "
            + otherName + ", but " + problem);
      }
    }
  }
}
