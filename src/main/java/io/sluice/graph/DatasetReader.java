package io.sluice.graph;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Turns a read of one of the pipeline's datasets into a DataFrame. Resolution reads
 * empty stand-ins of the right schema; execution reads the real tables.
 */
@FunctionalInterface
public interface DatasetReader {
  Dataset<Row> read(DatasetDefinition dataset, boolean streaming);
}
