package io.sluice.execution;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A flow that runs once (AUTO CDC ONCE): its source is read as one batch on the first
 * update, and never again until a full refresh clears its checkpoint. The batch is written
 * as batch 0 of its {@link BatchLog}, so a crash before it is marked done cannot apply it twice,
 * and, once the batch has begun, reads the table versions of that attempt ({@link OnceInput}),
 * so an attempt after a crash makes its missing commits of the same rows.
 */
public final class OnceFlowExecutor implements FlowExecutor {
  private final Checkpoints checkpoints;
  private final StreamingFlowExecutor.SinkFactory sinks;

  public OnceFlowExecutor(Checkpoints checkpoints, StreamingFlowExecutor.SinkFactory sinks) {
    this.checkpoints = checkpoints;
    this.sinks = sinks;
  }

  @Override
  public void execute(FlowRun run) {
    OnceMarker marker = new OnceMarker(checkpoints, run);
    if (marker.done()) {
      return;
    }
    run.starting();
    BatchSink sink = sinks.create(run, run.target().name().quoted(), BatchLog.open(checkpoints, run));
    boolean begun = BatchLog.unfinished(checkpoints, run.target().name(), run.flow().name()).isPresent();
    OnceInput input = OnceInput.open(run.spark(), checkpoints.location(run.target().name(), run.flow().name()), begun);
    Dataset<Row> rows = run.buildQuery(input);
    input.save();
    run.withFlowConf(() -> {
      run.processBatch(rows, 0, sink);
      return null;
    });
    sink.finish();
    marker.markDone();
  }
}
