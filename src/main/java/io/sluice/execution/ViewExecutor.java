package io.sluice.execution;

import io.sluice.graph.DatasetType;

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
    String text = run.flow().definition().query().sqlText()
        .orElseThrow(() -> new IllegalStateException("a persisted view is defined in SQL"));
    run.withFlowConf(() -> run.spark().sql("CREATE OR REPLACE VIEW " + run.target().name().quoted() + " AS " + text));
  }
}
