package io.sluice.api;

/** Entry point of the Java authoring API: each method starts the definition of one dataset or flow. */
public interface Pipeline {
  TableBuilder streamingTable(String name);

  TableBuilder materializedView(String name);

  ViewBuilder temporaryView(String name);

  /**
   * A flow into a streaming table: an append flow (several may write into one table), or a
   * REPLACE USING or REPLACE WHERE flow when the builder says so.
   */
  FlowBuilder flow(String name);

  /** An AUTO CDC flow: applies a change feed to a streaming table, as SCD type 1 or 2. */
  AutoCdcFlowBuilder autoCdcFlow(String name);

  /** An AUTO CDC FROM SNAPSHOT flow: applies successive snapshots of a source to a streaming table. */
  AutoCdcFromSnapshotFlowBuilder autoCdcFromSnapshotFlow(String name);
}
