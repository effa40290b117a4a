package io.sluice.api;

/** Entry point of the Java authoring API: each method starts the definition of one dataset or flow. */
public interface Pipeline {
  TableBuilder streamingTable(String name);

  TableBuilder materializedView(String name);

  ViewBuilder temporaryView(String name);

  /** A flow that appends its query's rows to a streaming table; several may write into one table. */
  FlowBuilder appendFlow(String name);
}
