package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import io.sluice.graph.GraphException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute;
import org.apache.spark.sql.catalyst.plans.logical.EventTimeWatermark;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedHint;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Sluice's SQL form of Spark's {@code dropDuplicatesWithinWatermark} (SEMANTICS §9.5), which
 * Spark SQL lacks: the hint {@code SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) *}{@code / ...}
 * keeps the first row of each {@code id} among the rows the query returns, forgetting an id
 * once the watermark passes it, with that state in the flow's checkpoint. A hint Spark would
 * silently ignore is refused instead, so a misspelt one cannot let duplicates through.
 */
final class DeduplicationHint {
  static final String NAME = "DROP_DUPLICATES_WITHIN_WATERMARK";
  private static final Set<String> SPARK_HINTS = Set.of("BROADCAST", "BROADCASTJOIN", "MAPJOIN", "SHUFFLE_MERGE",
      "MERGEJOIN", "MERGE", "SHUFFLE_HASH", "SHUFFLE_REPLICATE_NL", "COALESCE", "REPARTITION", "REPARTITION_BY_RANGE",
      "REBALANCE");

  private DeduplicationHint() {}

  /** Whether the hint is ours; refuses one that neither Spark nor Sluice knows. */
  static boolean isDeduplication(UnresolvedHint hint, Origin origin) {
    String name = hint.name().toUpperCase(Locale.ROOT);
    if (name.equals(NAME)) {
      return true;
    }
    if (!SPARK_HINTS.contains(name)) {
      throw new GraphException(ErrorClass.UNKNOWN_HINT, origin, "unknown hint '" + hint.name() + "'; Sluice knows "
          + NAME + "(column, ...) and Spark its join and partitioning hints (BROADCAST, REPARTITION, ...)");
    }
    return false;
  }

  /** The rows of {@code child} (its sources already swapped in), de-duplicated by the hint's columns. */
  static LogicalPlan plan(SparkSession spark, UnresolvedHint hint, LogicalPlan child, Origin origin) {
    List<String> columns = new ArrayList<>();
    for (Object parameter : CollectionConverters.asJava(hint.parameters())) {
      columns.add(parameter instanceof UnresolvedAttribute attribute ? attribute.name() : String.valueOf(parameter));
    }
    if (columns.isEmpty()) {
      throw error(origin, NAME + " needs the columns that identify a row: " + NAME + "(order_id)");
    }
    Dataset<Row> rows = SparkPlans.ofRows(spark, child);
    if (rows.isStreaming() && !hasWatermark(rows)) {
      throw error(origin, NAME + " needs a watermark on the rows the query returns: add WATERMARK column DELAY OF"
          + " INTERVAL 10 MINUTES after the streaming source, and keep that column in the select");
    }
    try {
      return SparkPlans.logicalPlan(rows.dropDuplicatesWithinWatermark(columns.toArray(String[]::new)));
    } catch (Exception e) {
      throw error(origin, NAME + "(" + String.join(", ", columns) + "): " + SparkErrors.firstLine(e));
    }
  }

  /** Whether a column of the rows carries a watermark (Spark marks the event time column so). */
  private static boolean hasWatermark(Dataset<Row> rows) {
    return Arrays.stream(rows.schema().fields()).anyMatch(f -> f.metadata().contains(EventTimeWatermark.delayKey()));
  }

  private static GraphException error(Origin origin, String message) {
    return new GraphException(ErrorClass.DEDUPLICATION_WITHOUT_WATERMARK, origin, message);
  }
}
