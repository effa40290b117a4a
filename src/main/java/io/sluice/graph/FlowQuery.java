package io.sluice.graph;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The query of a flow: SQL text or a Java function, built against a {@link FlowResolution}. */
@FunctionalInterface
public interface FlowQuery {
  Dataset<Row> build(FlowResolution resolution);
}
