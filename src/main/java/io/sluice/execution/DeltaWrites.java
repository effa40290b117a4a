package io.sluice.execution;

import static org.apache.spark.sql.functions.lit;

import io.sluice.graph.SparkErrors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The table writes Sluice's sinks make, with Spark's undeclared checked exceptions unwrapped. */
final class DeltaWrites {
  private DeltaWrites() {}

  /** Appends in one commit that Delta skips if ({@code appId}, {@code version}) already committed. */
  static void idempotentAppend(Dataset<Row> rows, String table, String appId, long version) {
    try {
      rows.writeTo(table).option("txnAppId", appId).option("txnVersion", String.valueOf(version)).append();
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /** Replaces all rows of the table in one commit. */
  static void overwrite(Dataset<Row> rows, String table) {
    try {
      rows.writeTo(table).overwrite(lit(true));
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }
}
