package io.sluice.execution;

/**
 * Recomputes a materialized view from its query and replaces its rows in one atomic Delta
 * commit; readers see the old result or the new one, never a mix.
 */
public final class MaterializedViewExecutor implements FlowExecutor {
  @Override
  public void execute(FlowRun run) {
    String table = run.target().name().quoted();
    run.withFlowConf(() -> {
      run.processBatch(run.buildQuery(), 0, (rows, batchId, count) -> {
        DeltaWrites.overwrite(rows, table);
        return BatchSink.Written.all(count);
      });
      return null;
    });
  }
}
