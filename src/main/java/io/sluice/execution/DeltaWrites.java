package io.sluice.execution;

import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.SparkErrors;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.actions.Action;
import scala.Option;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** The table writes Sluice's sinks make, with Spark's undeclared checked exceptions unwrapped. */
public final class DeltaWrites {
  private static final String USER_METADATA = "spark.databricks.delta.commitInfo.userMetadata";
  private static final String SKIP_EMPTY_COMMITS = "spark.databricks.delta.skipRecordingEmptyCommits";
  private static final String TXN_APP_ID = "spark.databricks.delta.write.txnAppId";
  private static final String TXN_VERSION = "spark.databricks.delta.write.txnVersion";

  private DeltaWrites() {}

  /** Appends in one commit. */
  public static void append(Dataset<Row> rows, String table) {
    try {
      rows.writeTo(table).append();
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /** Appends in one commit to the Delta table at {@code location}, creating it if there is none. */
  public static void appendAt(Dataset<Row> rows, String location) {
    rows.write().format("delta").mode("append").save(location);
  }

  /** Replaces all rows of the table in one commit. */
  public static void overwrite(Dataset<Row> rows, String table) {
    try {
      rows.writeTo(table).overwrite(lit(true));
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /** Replaces the rows matching {@code predicate} in one commit. */
  public static void replaceWhere(Dataset<Row> rows, String table, String predicate) {
    try {
      rows.writeTo(table).overwrite(expr(predicate));
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /**
   * The Delta version of the commit that carries {@code tag}, looking from {@code fromVersion}
   * on; -1 if there is none. Fails, naming the fix, if the table's log from {@code fromVersion}
   * cannot be read (Delta cleans up its log after {@code delta.logRetentionDuration}).
   */
  public static long commitOf(SparkSession spark, DeltaTarget table, CommitTag tag, long fromVersion) {
    try {
      Iterator<Tuple2<Object, Seq<Action>>> commits = table.log(spark).getChanges(fromVersion, Option.empty(), true);
      while (commits.hasNext()) {
        Tuple2<Object, Seq<Action>> commit = commits.next();
        if (tag.marks(CollectionConverters.asJava(commit._2()))) {
          return (Long) commit._1();
        }
      }
      return -1;
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot tell whether batch " + tag.batch() + " committed to " + table.key()
          + ": its log from version " + fromVersion + " cannot be read (" + SparkErrors.firstLine(e) + "); if Delta"
          + " cleaned it up, it no longer holds version " + fromVersion + ", and a full refresh of the flow starts it"
          + " again", e);
    }
  }

  /**
   * Runs {@code write} with its Delta commits carrying {@code tag} (SparkSession confs apply to
   * the batch's own session, a per-query clone); a value the user set comes back after.
   */
  public static <T> T tagged(SparkSession session, CommitTag tag, Supplier<T> write) {
    return withUserMetadata(session, tag.json(session), write);
  }

  /** Runs {@code write} with its Delta commits carrying {@code userMetadata}, as {@link #tagged} does. */
  public static <T> T withUserMetadata(SparkSession session, String userMetadata, Supplier<T> write) {
    return withConf(session, USER_METADATA, userMetadata, write);
  }

  /**
   * Runs {@code write} with its Delta commits recorded even when they change no file: a commit
   * that carries state (a view's refresh) must exist when the rows did not change.
   */
  public static <T> T recordingEmptyCommits(SparkSession session, Supplier<T> write) {
    return withConf(session, SKIP_EMPTY_COMMITS, "false", write);
  }

  private static <T> T withConf(SparkSession session, String key, String value, Supplier<T> write) {
    RuntimeConfig conf = session.conf();
    Option<String> before = conf.getOption(key);
    conf.set(key, value);
    try {
      return write.get();
    } finally {
      if (before.isDefined()) {
        conf.set(key, before.get());
      } else {
        conf.unset(key);
      }
    }
  }

  /** The same, for a write that returns nothing. */
  public static void tagged(SparkSession session, CommitTag tag, Runnable write) {
    tagged(session, tag, () -> {
      write.run();
      return true;
    });
  }

  /**
   * Runs {@code write} as a Delta idempotent write: Delta skips its commit if the tag's app
   * version already committed on the target, which it reads from the table's full log state.
   * Only for what the tags cannot tell: checkpoints from before them, and a write whose
   * table's version before it was not recorded.
   */
  public static <T> T idempotently(SparkSession session, CommitTag tag, Supplier<T> write) {
    RuntimeConfig conf = session.conf();
    conf.set(TXN_APP_ID, tag.appId());
    conf.set(TXN_VERSION, String.valueOf(tag.batch()));
    try {
      return write.get();
    } finally {
      conf.unset(TXN_APP_ID);
      conf.unset(TXN_VERSION);
    }
  }
}
