package io.sluice.api;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * One snapshot of a source and its version, as a {@link SnapshotFunction} returns it.
 *
 * @param rows the whole content of the source at that version
 * @param version orders the snapshots: each must be greater than the one before
 */
public record Snapshot<V>(Dataset<Row> rows, V version) {
  public static <V> Snapshot<V> of(Dataset<Row> rows, V version) {
    return new Snapshot<>(rows, version);
  }
}
