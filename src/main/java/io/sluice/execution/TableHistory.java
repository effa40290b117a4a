package io.sluice.execution;

import io.sluice.graph.DatasetName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The commits of a managed table, newest first, each with the update, flow and batch that made
 * it, read from its commit tag (SEMANTICS §11.2); commits Sluice did not make (a user's
 * {@code DELETE}, maintenance) have none.
 */
public final class TableHistory {
  private TableHistory() {}

  /** One commit: its version, time, Delta operation and figures, and what made it. */
  public record Commit(long version, Instant time, String operation, Map<String, String> metrics,
      Optional<CommitTag.Made> madeBy) {
    /**
     * Its row counts in words: {@code 3 written}, {@code 3 written, 2 deleted} (a REPLACE USING
     * batch), or {@code 2 inserted, 1 updated, 0 deleted}.
     */
    public String rows() {
      if (metrics.containsKey("numTargetRowsInserted")) {
        return metrics.get("numTargetRowsInserted") + " inserted, " + metrics.getOrDefault("numTargetRowsUpdated", "0")
            + " updated, " + metrics.getOrDefault("numTargetRowsDeleted", "0") + " deleted";
      }
      if (metrics.containsKey("numOutputRows")) {
        return metrics.get("numOutputRows") + " written"
            + (metrics.containsKey("numDeletedRows") ? ", " + metrics.get("numDeletedRows") + " deleted" : "");
      }
      if (metrics.containsKey("numDeletedRows")) {
        return metrics.get("numDeletedRows") + " deleted";
      }
      return "";
    }
  }

  public static List<Commit> of(SparkSession spark, DatasetName table) {
    List<Commit> commits = new ArrayList<>();
    for (Row row : spark.sql("DESCRIBE HISTORY " + table.quoted())
        .select("version", "timestamp", "operation", "operationMetrics", "userMetadata").collectAsList()) {
      Map<String, String> metrics = row.isNullAt(3) ? Map.of() : CollectionConverters.asJava(row.<String, String>getMap(3));
      commits.add(new Commit(row.getLong(0), row.getTimestamp(1).toInstant(), row.getString(2), Map.copyOf(metrics),
          CommitTag.madeBy(row.isNullAt(4) ? null : row.getString(4))));
    }
    return commits;
  }
}
