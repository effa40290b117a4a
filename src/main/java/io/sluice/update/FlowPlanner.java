package io.sluice.update;

import io.sluice.execution.Checkpoints;
import io.sluice.execution.FlowExecutor;
import io.sluice.execution.OnceFlowExecutor;
import io.sluice.execution.StreamingFlowExecutor;
import io.sluice.execution.ViewExecutor;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowMode;
import io.sluice.kinds.autocdc.AutoCdcSink;
import io.sluice.kinds.autocdc.SnapshotFlowExecutor;
import io.sluice.kinds.mv.MaterializedViewExecutor;
import io.sluice.kinds.replace.ReplaceUsingSink;
import io.sluice.kinds.replace.ReplaceWhereExecutor;
import io.sluice.kinds.sink.SinkWrites;

/** Chooses the executor of a flow from its kind and its target's type. */
final class FlowPlanner implements FlowMode.Visitor<FlowExecutor> {
  private final Checkpoints checkpoints;
  private final DatasetType target;

  FlowPlanner(Checkpoints checkpoints, DatasetType target) {
    this.checkpoints = checkpoints;
    this.target = target;
  }

  @Override
  public FlowExecutor append(FlowMode.Append mode) {
    return switch (target) {
      case STREAMING_TABLE -> StreamingFlowExecutor.append(checkpoints);
      case MATERIALIZED_VIEW -> new MaterializedViewExecutor(checkpoints);
      case TEMPORARY_VIEW, PERSISTED_VIEW -> new ViewExecutor();
      case SINK -> new StreamingFlowExecutor(checkpoints, (run, table, log) -> SinkWrites.open(run, log));
    };
  }

  @Override
  public FlowExecutor replaceUsing(FlowMode.ReplaceUsing mode) {
    return new StreamingFlowExecutor(checkpoints, (run, table, log) -> new ReplaceUsingSink(run, table, log, mode));
  }

  @Override
  public FlowExecutor replaceWhere(FlowMode.ReplaceWhere mode) {
    return new ReplaceWhereExecutor(mode);
  }

  @Override
  public FlowExecutor autoCdc(FlowMode.AutoCdc mode) {
    StreamingFlowExecutor.SinkFactory sinks = (run, table, log) -> AutoCdcSink.open(run, mode, table, log, checkpoints);
    return mode.once() ? new OnceFlowExecutor(checkpoints, sinks) : new StreamingFlowExecutor(checkpoints, sinks);
  }

  @Override
  public FlowExecutor autoCdcFromSnapshot(FlowMode.AutoCdcFromSnapshot mode) {
    return new SnapshotFlowExecutor(checkpoints, mode);
  }
}
