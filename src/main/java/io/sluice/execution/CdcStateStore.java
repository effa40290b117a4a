package io.sluice.execution;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;

import io.delta.tables.DeltaTable;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.graph.SparkErrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.StructType;

/**
 * The hidden side of an AUTO CDC target: a Delta table of the events each key still needs
 * (the tombstones of SCD type 1, every event of SCD type 2), so that late events land
 * where they belong. It lives beside the flows' checkpoints, so a full refresh of the
 * target clears it too, and readers of the target never see it.
 */
final class CdcStateStore {
  private final Path path;

  private CdcStateStore(Path path) {
    this.path = path;
  }

  /** The store at {@code path}, created empty with {@code schema} if it does not exist. */
  static CdcStateStore open(SparkSession spark, Path path, StructType schema) {
    if (!Files.exists(path.resolve("_delta_log"))) {
      try {
        spark.createDataFrame(List.of(), schema).write().format("delta").mode("ignore").save(path.toString());
      } catch (Exception e) {
        throw SparkErrors.unchecked(e);
      }
    }
    return new CdcStateStore(path);
  }

  Dataset<Row> read(SparkSession session) {
    return session.read().format("delta").load(path.toString());
  }

  /** The highest batch committed here under {@code appId}, or -1. */
  long committedVersion(SparkSession spark, String appId) {
    return DeltaWrites.committedVersion(spark, path, appId);
  }

  DeltaTable table(SparkSession session) {
    return DeltaTable.forPath(session, path.toString());
  }

  /**
   * Forgets the deletes recorded more than {@code threshold} ago that are still their key's
   * last event (SCD type 1 tombstones): a later event with a lower sequence for such a key
   * is applied again. A delete that upserts followed stays: under IGNORE NULL UPDATES it is
   * where their merging of NULLs starts.
   */
  void collectTombstones(SparkSession spark, Duration threshold, AutoCdcColumns columns) {
    Column expired = col(CdcEvents.OP).equalTo(lit(CdcEvents.DELETE))
        .and(col(CdcEvents.RECORDED_AT).lt(expr("current_timestamp() - INTERVAL " + threshold.toSeconds() + " SECONDS")));
    if (columns.ignoreNull().isEmpty()) {
      // One event per key: every delete is its key's last.
      table(spark).delete(expired);
      return;
    }
    List<String> match = new ArrayList<>(columns.keys());
    match.add(CdcEvents.SEQ);
    Dataset<Row> tombstones = read(spark)
        .withColumn("__sluice_last", max(col(CdcEvents.SEQ)).over(Window.partitionBy(ColumnNames.cols(columns.keys()))))
        .where(expired.and(col(CdcEvents.SEQ).equalTo(col("__sluice_last"))))
        .select(ColumnNames.cols(match));
    Column on = lit(true);
    for (String column : match) {
      on = on.and(col("t", column).eqNullSafe(col("s", column)));
    }
    table(spark).as("t").merge(tombstones.as("s"), on).whenMatched().delete().execute();
  }
}
