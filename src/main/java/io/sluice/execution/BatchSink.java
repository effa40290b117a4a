package io.sluice.execution;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Commits one batch of checked, table-shaped rows into a flow's target. Each flow kind has
 * its own (append, overwrite, and later keyed replacement or change application); a sink
 * must be idempotent per batch id so that a batch replayed after a crash changes nothing.
 */
@FunctionalInterface
interface BatchSink {
  void write(Dataset<Row> rows, long batchId);
}
