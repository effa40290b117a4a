package io.sluice.graph;

import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.types.StructType;

/**
 * A flow whose query has been analysed: its output schema, whether it streams, what it reads.
 *
 * @param schema the columns its query returns
 * @param streamingInputs the inputs among {@code inputs} that it reads as streams
 * @param autoCdc an AUTO CDC flow's clauses, resolved against its query's columns
 */
public record ResolvedFlow(
    FlowDefinition definition, StructType schema, boolean streaming, Set<DatasetName> inputs,
    Set<DatasetName> streamingInputs, Optional<AutoCdcColumns> autoCdc) {
  public ResolvedFlow {
    inputs = Set.copyOf(inputs);
    streamingInputs = Set.copyOf(streamingInputs);
  }

  /** The columns it writes into its target: the query's, or an AUTO CDC flow's target columns. */
  public StructType writtenSchema() {
    return autoCdc.map(AutoCdcColumns::targetSchema).orElse(schema);
  }

  public DatasetName name() {
    return definition.name();
  }

  public DatasetName target() {
    return definition.target();
  }
}
