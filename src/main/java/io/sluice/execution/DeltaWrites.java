package io.sluice.execution;

import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import io.sluice.graph.DatasetName;
import io.sluice.graph.SparkErrors;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import scala.Option;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;
import java.util.function.Supplier;

/** The table writes Sluice's sinks make, with Spark's undeclared checked exceptions unwrapped. */
final class DeltaWrites {
  private static final String TXN_APP_ID = "spark.databricks.delta.write.txnAppId";
  private static final String TXN_VERSION = "spark.databricks.delta.write.txnVersion";

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

  /** Replaces the rows matching {@code predicate} in one commit. */
  static void replaceWhere(Dataset<Row> rows, String table, String predicate) {
    try {
      rows.writeTo(table).overwrite(expr(predicate));
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /** The highest version committed on {@code table} under {@code appId} by {@link #idempotently}, or -1. */
  static long committedVersion(SparkSession spark, DatasetName table, String appId) {
    return (Long) snapshot(spark, table).transactions().get(appId).getOrElse(() -> -1L);
  }

  /** The table's current Delta version. */
  static long tableVersion(SparkSession spark, DatasetName table) {
    return snapshot(spark, table).version();
  }

  private static Snapshot snapshot(SparkSession spark, DatasetName table) {
    TableIdentifier id = new TableIdentifier(table.name(), Option.apply(table.database()), Option.apply(table.catalog()));
    return DeltaLog.forTableWithSnapshot(spark, id)._2();
  }

  /**
   * Runs {@code write} as an idempotent Delta commit: Delta skips it if ({@code appId},
   * {@code version}) already committed on the target. The settings go on the batch's own
   * session (a per-query clone) and are always removed.
   */
  static <T> T idempotently(SparkSession session, String appId, long version, Supplier<T> write) {
    RuntimeConfig conf = session.conf();
    conf.set(TXN_APP_ID, appId);
    conf.set(TXN_VERSION, String.valueOf(version));
    try {
      return write.get();
    } finally {
      conf.unset(TXN_APP_ID);
      conf.unset(TXN_VERSION);
    }
  }
}
