package io.sluice.kinds.mv;

import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.RefreshPolicy;
import io.sluice.graph.ResolvedFlow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
    add(techniques, shape.groupAggregate(), "GROUP_AGGREGATE after appends");
    if (view.refreshPolicy().requiresIncremental()) {
      add(techniques, shape.genericAggregate(), "GENERIC_AGGREGATE");
    }
    if (techniques.isEmpty()) {
      return "recomputed in full: " + shape.neverIncremental().or(shape::genericAggregate)
          .map(IncrementalizationIssue::reason).orElse("no technique applies");
    }
    return "refreshed by " + String.join(", ", techniques) + ", else recomputed";
  }

  private static void add(List<String> techniques, Optional<IncrementalizationIssue> issue, String technique) {
    if (issue.isEmpty()) {
      techniques.add(technique);
    }
  }
}
