package io.sluice.execution;

import io.sluice.expectations.BatchQuality;
import io.sluice.expectations.BatchRequirement;
import io.sluice.expectations.ValueSample;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Commits one batch of checked, table-shaped rows into a flow's target. Each flow kind has
 * its own (append, overwrite, keyed replacement); a sink must be idempotent per batch id,
 * so that a batch replayed after a crash changes nothing.
 */
@FunctionalInterface
public interface BatchSink {
  /**
   * @param rowCount how many rows {@code rows} holds (already counted)
   * @return the rows it wrote and its own figures for the batch's event
   */
  Written write(Dataset<Row> rows, long batchId, long rowCount);

  /**
   * Writes a batch with the sample of its {@link #sampledKey} values taken when it was counted:
   * a keyed sink bounds its reads by them ({@link KeyBounds}) with no Spark job of its own.
   */
  default Written write(Dataset<Row> rows, long batchId, long rowCount, Optional<ValueSample> keys) {
    return write(rows, batchId, rowCount);
  }

  /** The column of the rows it takes whose values a keyed sink bounds its reads by: sampled as the batch is counted. */
  default Optional<Column> sampledKey() {
    return Optional.empty();
  }

  /** What every row of a batch must meet for this sink, checked with the expectations before {@link #write}. */
  default List<BatchRequirement> requirements() {
    return List.of();
  }

  /**
   * Checks one batch and writes it. By default the batch is checked in a pass of its own, then
   * {@link #write} takes what passed; a sink that can check the batch as it reads it overrides this.
   */
  default Taken take(IncomingBatch batch) {
    return batch.checkThenWrite(this);
  }

  /** Runs once the flow has processed all its batches of the update, so no batch sees its effect half-way. */
  default void finish() {}

  /** A batch's data-quality figures and what its sink wrote. */
  record Taken(BatchQuality quality, Written written) {}

  /** What a sink did with one batch. */
  record Written(long rows, Map<String, Object> metrics) {
    public static Written all(long rows) {
      return new Written(rows, Map.of());
    }
  }
}
