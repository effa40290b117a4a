package io.sluice.api;

/** Entry point of the Java authoring API: each method starts the definition of one dataset or flow. */
public interface Pipeline {
  TableBuilder streamingTable(String name);

  TableBuilder materializedView(String name);

  ViewBuilder temporaryView(String name);

  /**
   * A flow into a streaming table or a sink: an append flow (several may write into one
   * target), or a REPLACE USING or REPLACE WHERE flow into a table when the builder says so.
   */
  FlowBuilder flow(String name);

  /** An AUTO CDC flow: applies a change feed to a streaming table, as SCD type 1 or 2. */
  AutoCdcFlowBuilder autoCdcFlow(String name);

  /** A sink: an output outside the pipeline's tables that append flows write into (SEMANTICS §9.1). */
  SinkBuilder sink(String name);

  /** A sink that hands each micro-batch of its flows to {@code handler} (SEMANTICS §9.2). */
  void foreachBatchSink(String name, BatchHandler handler);

  /** An AUTO CDC FROM SNAPSHOT flow: applies successive snapshots of a source to a streaming table. */
  AutoCdcFromSnapshotFlowBuilder autoCdcFromSnapshotFlow(String name);
}
