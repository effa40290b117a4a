package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import io.delta.tables.DeltaTable;
import io.sluice.common.SparkErrors;
import io.sluice.delta.NewTableSession;
import io.sluice.execution.DeltaTarget;
import io.sluice.storage.StoragePath;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * The hidden side of an AUTO CDC target: a Delta table of the change events its keys have
 * received (the tombstones of SCD type 1, every event of SCD type 2), so that late events
 * land where they belong. It lives beside the flows' checkpoints, so a full refresh of the
 * target clears it too, and readers of the target never see it.
 *
 * <p>The store is a log: a batch appends its new events (a plain idempotent append, far
 * cheaper than a MERGE) and readers replay a key's events, where the newest decide. Events
 * that can no longer decide anything (superseded, voided by a truncate, or expired
 * tombstones) are removed now and then by {@link #compact} and {@link #collectTombstones}.
 */
final class CdcStateStore {
  private final StoragePath path;

  private CdcStateStore(StoragePath path) {
    this.path = path;
  }

  /** The store at {@code path}, created empty with {@code schema} if it does not exist. */
  static CdcStateStore open(SparkSession spark, StoragePath path, StructType schema) {
    if (!path.isDeltaTable()) {
      try {
        SparkSession creator = NewTableSession.of(spark);
        creator.createDataFrame(List.of(), schema).write().format("delta").mode("ignore").save(path.toString());
      } catch (Exception e) {
        throw SparkErrors.unchecked(e);
      }
    }
    return new CdcStateStore(path);
  }

  /**
   * The store as of its current version ({@link DeltaTarget#readPinned}). Until its first
   * append it holds no event, and is read as an empty local relation: Spark's optimizer drops
   * those from joins and unions, so a first load does not shuffle its events against it.
   */
  Dataset<Row> read(SparkSession session) {
    if (isEmpty(session)) {
      return session.createDataFrame(List.of(), target().schema(session));
    }
    return target().readPinned(session);
  }

  /** The store's events that {@code predicate} selects, as {@link #read(SparkSession)} reads them. */
  Dataset<Row> read(SparkSession session, Column predicate) {
    return isEmpty(session) ? read(session) : target().readPinned(session, predicate);
  }

  /** Whether the store is as {@link #open} created it: no event appended yet. */
  boolean isEmpty(SparkSession session) {
    return version(session) == 0;
  }

  /** The store as a table flows commit to. */
  DeltaTarget target() {
    return DeltaTarget.location(path.toString());
  }

  /** The store's current Delta version. */
  long version(SparkSession spark) {
    return target().version(spark);
  }

  DeltaTable table(SparkSession session) {
    return DeltaTable.forPath(session, path.toString());
  }

  /** Appends {@code events} in one commit. New value columns are added to the store. */
  void append(Dataset<Row> events) {
    try {
      events.write().format("delta").mode("append")
          .option("mergeSchema", "true")
          .save(path.toString());
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /**
   * Rewrites the store with only the events in {@code needed} (computed from the store itself,
   * so a crash before the commit leaves it as it was and a rerun computes the same).
   */
  void compact(Dataset<Row> needed) {
    try {
      needed.write().format("delta").mode("overwrite").save(path.toString());
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  /**
   * Forgets the deletes recorded more than {@code threshold} ago that are still their key's
   * last event (SCD type 1 tombstones), with the older events of their keys: a later event
   * with a lower sequence for such a key is applied again. A delete that upserts followed
   * stays: under IGNORE NULL UPDATES it is where their merging of NULLs starts.
   *
   * <p>The expired deletes are looked for first: the store's file statistics on the recording
   * time skip every file written within the threshold, so an update with nothing to forget
   * reads little.
   */
  void collectTombstones(SparkSession spark, Duration threshold, List<String> keys) {
    Column expired = col(CdcEvents.OP).equalTo(lit(CdcEvents.DELETE))
        .and(col(CdcEvents.RECORDED_AT).lt(expr("current_timestamp() - INTERVAL " + threshold.toSeconds() + " SECONDS")));
    String upTo = "__sluice_tombstone_seq";
    Dataset<Row> candidates = read(spark).where(expired).select(keyColumns(keys, col(CdcEvents.SEQ).as(upTo)));
    if (candidates.isEmpty()) {
      return;
    }
    Column later = sameKey(keys, "e", "t").and(col("e", CdcEvents.SEQ).gt(col("t", upTo)));
    Dataset<Row> tombstones = candidates.as("t").join(read(spark).as("e"), later, "left_anti");
    table(spark).as("e").merge(tombstones.as("t"), sameKey(keys, "e", "t").and(col("e", CdcEvents.SEQ).leq(col("t", upTo))))
        .whenMatched().delete()
        .execute();
  }

  private static Column[] keyColumns(List<String> keys, Column extra) {
    Column[] columns = new Column[keys.size() + 1];
    for (int i = 0; i < keys.size(); i++) {
      columns[i] = col(keys.get(i));
    }
    columns[keys.size()] = extra;
    return columns;
  }

  private static Column sameKey(List<String> keys, String left, String right) {
    Column on = lit(true);
    for (String key : keys) {
      on = on.and(col(left, key).equalTo(col(right, key)));
    }
    return on;
  }
}
