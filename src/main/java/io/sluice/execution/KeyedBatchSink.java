package io.sluice.execution;

import static io.sluice.execution.ColumnNames.col;

import io.sluice.expectations.ValueSample;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A sink that replaces rows by key: the pass that counts a batch samples its first key's values,
 * and the sink bounds what it reads of its target by them ({@link KeyBounds}). Without a sample
 * it finds the bounds itself.
 */
public interface KeyedBatchSink extends BatchSink {
  /** The first of the keys the sink matches rows by, as written in its definition. */
  String firstKey();

  @Override
  default Optional<Column> sampledKey() {
    return Optional.of(col(firstKey()));
  }

  @Override
  default Written write(Dataset<Row> rows, long batchId, long rowCount) {
    return write(rows, batchId, rowCount, Optional.empty());
  }

  @Override
  Written write(Dataset<Row> rows, long batchId, long rowCount, Optional<ValueSample> keys);
}
