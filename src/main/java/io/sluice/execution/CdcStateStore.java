package io.sluice.execution;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import io.delta.tables.DeltaTable;
import io.sluice.graph.SparkErrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
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

  DeltaTable table(SparkSession session) {
    return DeltaTable.forPath(session, path.toString());
  }

  /**
   * Forgets the deletes recorded more than {@code threshold} ago (SCD type 1 tombstones): a
   * later event with a lower sequence for such a key is applied again.
   */
  void collectTombstones(SparkSession spark, Duration threshold) {
    table(spark).delete(col(CdcEvents.OP).equalTo(lit(CdcEvents.DELETE))
        .and(col(CdcEvents.RECORDED_AT).lt(expr("current_timestamp() - INTERVAL " + threshold.toSeconds() + " SECONDS"))));
  }
}
