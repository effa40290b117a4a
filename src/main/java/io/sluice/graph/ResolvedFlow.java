package io.sluice.graph;

import java.util.Set;
import org.apache.spark.sql.types.StructType;

/**
 * A flow whose query has been analysed: its output schema, whether it streams, what it reads.
 *
 * @param streamingInputs the inputs among {@code inputs} that it reads as streams
 */
public record ResolvedFlow(
    FlowDefinition definition, StructType schema, boolean streaming, Set<DatasetName> inputs,
    Set<DatasetName> streamingInputs) {
  public ResolvedFlow {
    inputs = Set.copyOf(inputs);
    streamingInputs = Set.copyOf(streamingInputs);
  }

  public DatasetName name() {
    return definition.name();
  }

  public DatasetName target() {
    return definition.target();
  }
}
