package io.sluice.execution;

import io.sluice.storage.StoragePath;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Recomputes a materialized view from its query and replaces its rows in one atomic Delta
 * commit; readers see the old result or the new one, never a mix. A view whose query reads
 * only Delta tables and constants ({@link SourceFingerprint}) is not recomputed while none of
 * those tables committed a new version, its definition is the same and its own table is as its
 * last refresh left it (SEMANTICS §7.2, §10.1).
 */
public final class MaterializedViewExecutor implements FlowExecutor {
  private final Checkpoints checkpoints;

  public MaterializedViewExecutor(Checkpoints checkpoints) {
    this.checkpoints = checkpoints;
  }

  @Override
  public void execute(FlowRun run) {
    String table = run.target().name().quoted();
    DeltaTarget target = DeltaTarget.table(run.target().name());
    StoragePath mark = checkpoints.location(run.target().name(), run.flow().name()).resolve("inputs-at-last-refresh");
    run.withFlowConf(() -> {
      Dataset<Row> query = run.buildQuery();
      // The view's own expectations and columns decide its rows too.
      Optional<String> inputs = SourceFingerprint.of(query, run.flow().definition().sqlConf())
          .map(f -> f + " " + run.target().expectations() + " " + run.targetSchema().toDDL());
      if (inputs.isPresent() && read(mark).equals(Optional.of(inputs.get() + "@" + target.version(run.spark())))) {
        run.unchanged("its inputs have no new version since its last refresh: not recomputed", Map.of("recomputed", false));
        return null;
      }
      run.starting();
      run.processBatch(query, 0, (rows, batchId, count) -> {
        DeltaWrites.overwrite(rows, table);
        return BatchSink.Written.all(count);
      });
      write(mark, inputs.map(f -> f + "@" + target.version(run.spark())));
      return null;
    });
  }

  private static Optional<String> read(StoragePath mark) {
    return mark.readIfExists().map(String::trim);
  }

  private static void write(StoragePath mark, Optional<String> state) {
    if (state.isPresent()) {
      mark.write(state.get());
    } else {
      mark.delete();
    }
  }
}
