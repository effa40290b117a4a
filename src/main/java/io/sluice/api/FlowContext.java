package io.sluice.api;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What a flow's query sees. Reads of the pipeline's own datasets must go through
 * {@link #read} and {@link #readStream}: that is how Sluice learns the dependencies and
 * orders the flows. Other tables can be read through {@link #spark()} as usual.
 */
public interface FlowContext {
  SparkSession spark();

  /** A batch read of a dataset of this pipeline (or of any catalog table). */
  Dataset<Row> read(String name);

  /** A streaming read: only the rows added since this flow last ran. */
  Dataset<Row> readStream(String name);
}
