package io.sluice.graph;

import java.util.Set;
import org.apache.spark.sql.types.StructType;

/** A flow whose query has been analysed: its output schema, whether it streams, what it reads. */
public record ResolvedFlow(FlowDefinition definition, StructType schema, boolean streaming, Set<DatasetName> inputs) {
  public ResolvedFlow {
    inputs = Set.copyOf(inputs);
  }

  public DatasetName name() {
    return definition.name();
  }

  public DatasetName target() {
    return definition.target();
  }
}
