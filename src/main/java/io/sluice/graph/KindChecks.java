package io.sluice.graph;

import org.apache.spark.sql.SparkSession;

/**
 * The checks of SEMANTICS §1.4 that depend on a flow's kind or on a sink: the kinds keep theirs
 * in their packages, above this one, so {@link GraphResolver#resolve} takes them from its caller
 * (an update passes every kind's), and {@link GraphValidator} calls them in their place among
 * the checks of every flow and dataset.
 */
public interface KindChecks {
  /** The checks that depend on the kind of one resolved flow. */
  void checkFlow(SparkSession spark, ResolvedGraph graph, ResolvedFlow flow);

  /** The checks of a sink's own definition: its format and options. */
  void checkSink(SparkSession spark, DatasetDefinition sink);
}
