package io.sluice.replace;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.execution.BatchSink;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowExecutor;
import io.sluice.execution.FlowRun;
import io.sluice.graph.FlowMode;
import java.util.List;

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
    String table = run.target().name().quoted();
    run.withFlowConf(() -> {
      run.processBatch(run.buildQuery(), 0, (rows, batchId, count) -> {
        List<String> outside = rows.where(not(coalesce(expr(mode.predicate()), lit(false)))).toJSON().takeAsList(1);
        if (!outside.isEmpty()) {
          throw new SluiceException(ErrorClass.REPLACE_WHERE_ROW_OUTSIDE_PREDICATE, run.flow().definition().origin(),
              "flow '" + run.flow().name() + "' produced row " + outside.get(0) + ", which REPLACE WHERE "
                  + mode.predicate() + " does not cover; nothing was written");
        }
        DeltaWrites.replaceWhere(rows, table, mode.predicate());
        return BatchSink.Written.all(count);
      });
      return null;
    });
  }
}
