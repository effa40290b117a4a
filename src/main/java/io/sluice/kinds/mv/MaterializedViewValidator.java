package io.sluice.kinds.mv;

import io.sluice.ErrorClass;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.GraphException;
import io.sluice.graph.ResolvedFlow;

/** The definition checks of a materialized view: one asking for incremental refreshes must have a query that allows them. */
public final class MaterializedViewValidator {
  private MaterializedViewValidator() {}

  public static void validate(ResolvedFlow flow, DatasetDefinition view) {
    if (!view.refreshPolicy().requiresIncremental()) {
      return;
    }
    QueryShape.ofStandIns(flow.analyzed()).neverIncremental().ifPresent(issue -> {
      throw new GraphException(ErrorClass.MATERIALIZED_VIEW_NOT_INCREMENTALIZABLE, view.origin(),
          "materialized view '" + view.name() + "' (REFRESH POLICY " + view.refreshPolicy().sql()
              + ") can never be refreshed incrementally: " + issue.reason() + " (" + issue.type() + ")");
    });
  }
}
