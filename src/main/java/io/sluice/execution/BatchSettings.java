package io.sluice.execution;

import io.sluice.graph.FlowConf;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * SQL settings in force while Sluice processes one batch, so that its checks and counts each
 * run as one Spark job (every job costs its scheduling and planning, even on ten rows).
 *
 * <p>A {@code take} or {@code limit} first scans one partition and, when that had too few
 * rows, scans the rest in a second job: a check that expects to find nothing (a NULL key, a
 * row outside REPLACE WHERE) always paid both. Here the first job scans every partition.
 *
 * <p>A global aggregate (the batch's counts) has nothing for adaptive execution to adapt,
 * but under it each of its shuffle stages becomes a job of its own.
 *
 * <p>Delta's MERGE first writes out ("materializes") any source that is not a plain Delta
 * scan, so that its two passes over the source see the same rows: one more job, writing
 * the whole source to disk. A batch's MERGE sources are already that: built from the cached
 * batch and from reads pinned to a table version, so Delta's objection to cached sources
 * (a cache does not pin the version of the Delta tables it read) does not hold for them.
 *
 * <p>Code generation stays on however small the batch: its MERGE may still scan every file
 * of a large target (keys spread over the key space), which interpreted took 3x as long.
 */
public final class BatchSettings {
  private static final String LIMIT_FIRST_PARTITIONS = "spark.sql.limit.initialNumPartitions";
  private static final String ADAPTIVE = "spark.sql.adaptive.enabled";
  private static final String MERGE_MATERIALIZE_SOURCE = "spark.databricks.delta.merge.materializeSource";
  private static final String MERGE_REFUSE_CACHED_SOURCE = "spark.databricks.delta.merge.failSourceCachedAfterMaterialization";
  private static final String ALL = String.valueOf(Integer.MAX_VALUE);
  private static final String EXCLUDED_RULES = "spark.sql.optimizer.excludedRules";
  private static final String MERGE_SUBPLANS = "org.apache.spark.sql.catalyst.optimizer.MergeSubplans";
  private static final String BROADCAST_THRESHOLD = "spark.sql.autoBroadcastJoinThreshold";

  private BatchSettings() {}

  /**
   * Plans and counts the changes of a keyed batch, without adaptive execution. Its plans cache
   * a dataset and read it several times (windows, joins, counts): a cache planned adaptively
   * hides how its rows are partitioned and sorted, so every window or join over it shuffles
   * the whole batch again, and in a small batch adaptive execution would make each shuffle a
   * Spark job of its own. The batch's MERGE, planned later, keeps it.
   */
  public static <T> T forPlanning(SparkSession session, Supplier<T> body) {
    return JobPhase.labelled(session, "changes", () -> FlowConf.withSqlConf(session, Map.of(ADAPTIVE, "false"), body));
  }

  /**
   * Runs {@code body}, whose joins are all between datasets of a batch's size, without broadcast
   * joins: a broadcast is a Spark job of its own (its side collected, then sent), where a shuffle
   * of a few rows is one more stage of the job that needs it. A REPLACE USING batch of 10 keys:
   * 3 jobs for its decisions' counts, 1 without. Not for a join with a table's side, which a
   * broadcast of the batch's side keeps from being shuffled. Measured embedded; on a cluster each
   * shuffle stage has {@code spark.sql.shuffle.partitions} tasks (adaptive execution is off here).
   */
  public static <T> T withoutBroadcasts(SparkSession session, Supplier<T> body) {
    return FlowConf.withSqlConf(session, Map.of(BROADCAST_THRESHOLD, "-1"), body);
  }

  /**
   * Runs the batch's global aggregates and checks. Spark's {@value #MERGE_SUBPLANS} would turn
   * two of a batch's counts over one cached dataset into a scalar subquery, run as a Spark job
   * of its own before the counts' own (in an SCD 2 first load of 1,000,000 events, that job
   * built the dataset's windows a second time): a second read of a cache costs less.
   */
  static <T> T forCounts(SparkSession session, Supplier<T> body) {
    String excluded = session.conf().getOption(EXCLUDED_RULES).getOrElse(() -> "");
    return JobPhase.labelled(session, "counts", () -> FlowConf.withSqlConf(session, Map.of(LIMIT_FIRST_PARTITIONS, ALL,
        ADAPTIVE, "false", EXCLUDED_RULES, excluded.isBlank() ? MERGE_SUBPLANS : excluded + "," + MERGE_SUBPLANS), body));
  }

  /**
   * Runs the write of a batch: its checks, which take their first offending row if any, its
   * MERGE and Delta's commit.
   */
  static <T> T forWrite(SparkSession session, Supplier<T> body) {
    return FlowConf.withSqlConf(session, Map.of(LIMIT_FIRST_PARTITIONS, ALL,
        MERGE_MATERIALIZE_SOURCE, "none", MERGE_REFUSE_CACHED_SOURCE, "false"), body);
  }
}
