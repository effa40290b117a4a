package io.sluice.execution;

import io.sluice.graph.DatasetType;
import io.sluice.sql.SqlFlowQuery;

/**
 * Publishes a view. A temporary view is registered in the session for the flows that
 * read it; a persisted view is (re)created in the catalog from its SQL text.
 */
public final class ViewExecutor implements FlowExecutor {
  @Override
  public void execute(FlowRun run) {
    if (run.target().type() == DatasetType.TEMPORARY_VIEW) {
      run.buildQuery().createOrReplaceTempView(run.target().name().name());
      return;
    }
    if (!(run.flow().definition().query() instanceof SqlFlowQuery sql)) {
      throw new IllegalStateException("a persisted view is defined in SQL");
    }
    run.withFlowConf(() -> run.spark().sql("CREATE OR REPLACE VIEW " + run.target().name().quoted() + " AS " + sql.text()));
  }
}
