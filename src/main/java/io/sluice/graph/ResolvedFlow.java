package io.sluice.graph;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.StructType;

/**
 * A flow whose query has been analysed: its output schema, whether it streams, what it reads.
 *
 * @param schema the columns its query returns
 * @param streamingInputs the inputs among {@code inputs} that it reads as streams
 * @param output what it writes into its target, resolved against its query's columns
 * @param externalSources what it reads from outside the pipeline
 * @param analyzed its query's analyzed plan, over stand-ins (empty relations) for the pipeline's tables
 */
public record ResolvedFlow(
    FlowDefinition definition, StructType schema, boolean streaming, Set<DatasetName> inputs,
    Set<DatasetName> streamingInputs, FlowOutput output, Set<ExternalSource> externalSources, LogicalPlan analyzed) {
  public ResolvedFlow {
    inputs = Set.copyOf(inputs);
    streamingInputs = Set.copyOf(streamingInputs);
    externalSources = Collections.unmodifiableSet(new LinkedHashSet<>(externalSources));
  }

  /** The columns it writes into its target: the query's, or an AUTO CDC flow's target columns. */
  public StructType writtenSchema() {
    return output.targetSchema();
  }

  public DatasetName name() {
    return definition.name();
  }

  public DatasetName target() {
    return definition.target();
  }
}
