package io.sluice.api;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** A flow's query in Java: builds the DataFrame to write, reading pipeline datasets through the context. */
@FunctionalInterface
public interface FlowFunction {
  Dataset<Row> apply(FlowContext context);
}
