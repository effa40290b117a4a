package io.sluice.execution;

import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import io.sluice.graph.DatasetName;
import io.sluice.graph.SparkErrors;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.SetTransaction;
import scala.Option;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
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
    return txnVersion(snapshot(spark, table), appId);
  }

  /** The same for the Delta table at {@code path}. */
  static long committedVersion(SparkSession spark, java.nio.file.Path path, String appId) {
    return txnVersion(DeltaLog.forTableWithSnapshot(spark, path.toString())._2(), appId);
  }

  private static long txnVersion(Snapshot snapshot, String appId) {
    return (Long) snapshot.transactions().get(appId).getOrElse(() -> -1L);
  }

  /**
   * The table as of its current version, for a batch that caches what it reads of a table
   * and then writes that table: after each write Spark re-plans every cached plan that reads the
   * table's latest version, which lists the table's files again (a Spark job per scan). A read of
   * a pinned version is not such a plan.
   */
  static Dataset<Row> readPinned(SparkSession session, DatasetName table) {
    return session.read().option("versionAsOf", tableVersion(session, table)).table(table.quoted());
  }

  /** The table's current Delta version. */
  static long tableVersion(SparkSession spark, DatasetName table) {
    return snapshot(spark, table).version();
  }

  /**
   * The Delta version of the commit made under ({@code appId}, {@code version}) by
   * {@link #idempotently}, looking from {@code fromVersion} on; -1 if there is none.
   */
  static long commitOf(SparkSession spark, DatasetName table, String appId, long version, long fromVersion) {
    Iterator<Tuple2<Object, Seq<Action>>> commits =
        DeltaLog.forTable(spark, identifier(table)).getChanges(fromVersion, Option.empty(), false);
    while (commits.hasNext()) {
      Tuple2<Object, Seq<Action>> commit = commits.next();
      boolean ours = CollectionConverters.asJava(commit._2()).stream()
          .anyMatch(a -> a instanceof SetTransaction txn && txn.appId().equals(appId) && txn.version() == version);
      if (ours) {
        return (Long) commit._1();
      }
    }
    return -1;
  }

  private static Snapshot snapshot(SparkSession spark, DatasetName table) {
    return DeltaLog.forTableWithSnapshot(spark, identifier(table))._2();
  }

  private static TableIdentifier identifier(DatasetName table) {
    return new TableIdentifier(table.name(), Option.apply(table.database()), Option.apply(table.catalog()));
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
