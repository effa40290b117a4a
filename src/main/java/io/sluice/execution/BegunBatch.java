package io.sluice.execution;

import java.util.Map;
import org.apache.spark.sql.SparkSession;

/** A batch as its {@link BatchLog} recorded it when it began: its number and the versions of the tables it writes. */
public record BegunBatch(long batch, Map<String, Long> versionsBefore) {
  /** Whether the batch made its commit to {@code table}, tagged with {@code appId}. */
  public boolean madeOn(SparkSession spark, DeltaTarget table, String appId) {
    Long before = versionsBefore.get(table.key());
    return before != null && DeltaWrites.commitOf(spark, table, new CommitTag(appId, batch), before + 1) >= 0;
  }
}
