package io.sluice.kinds.replace;

import static org.apache.spark.sql.functions.expr;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.execution.BatchSink;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowExecutor;
import io.sluice.execution.FlowRun;
import io.sluice.expectations.BatchRequirement;
import io.sluice.graph.FlowMode;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A REPLACE WHERE flow (SEMANTICS §3): on every update, the target rows matching the
 * predicate are replaced by the query's rows in one atomic Delta commit. A query row
 * outside the predicate fails the flow before anything is written.
 */
public final class ReplaceWhereExecutor implements FlowExecutor {
  private final FlowMode.ReplaceWhere mode;

  public ReplaceWhereExecutor(FlowMode.ReplaceWhere mode) {
    this.mode = mode;
  }

  @Override
  public void execute(FlowRun run) {
    run.starting();
    String table = run.target().name().quoted();
    BatchSink replace = new BatchSink() {
      @Override
      public Written write(Dataset<Row> rows, long batchId, long rowCount) {
        DeltaWrites.replaceWhere(rows, table, mode.predicate());
        return Written.all(rowCount);
      }

      @Override
      public List<BatchRequirement> requirements() {
        return List.of(new BatchRequirement(expr(mode.predicate()), row -> new SluiceException(
            ErrorClass.REPLACE_WHERE_ROW_OUTSIDE_PREDICATE, run.flow().definition().origin(), "flow '"
                + run.flow().name() + "' produced row " + row + ", which REPLACE WHERE " + mode.predicate()
                + " does not cover; nothing was written")));
      }
    };
    run.withFlowConf(() -> {
      run.processBatch(run.buildQuery(), 0, replace);
      return null;
    });
  }
}
