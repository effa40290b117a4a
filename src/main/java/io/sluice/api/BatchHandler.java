package io.sluice.api;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a foreach-batch sink does with each micro-batch. A batch retried after a crash comes
 * again with the same id and the same rows, so the handler can make its write idempotent;
 * after a full refresh ids start again at 0.
 */
@FunctionalInterface
public interface BatchHandler {
  void handle(Dataset<Row> batch, long batchId) throws Exception;
}
