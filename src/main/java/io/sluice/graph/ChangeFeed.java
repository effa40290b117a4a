package io.sluice.graph;

import io.sluice.common.Identifiers;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * How a stream reads an AUTO CDC target: its commits update and delete rows, which a plain
 * Delta stream refuses, so the stream reads the table's change data feed instead. Each row
 * then carries the feed's columns: {@code _change_type} (insert, update_preimage,
 * update_postimage, delete), {@code _commit_version} and {@code _commit_timestamp}.
 */
public final class ChangeFeed {
  public static final String ENABLE_PROPERTY = "delta.enableChangeDataFeed";
  public static final String READ_OPTION = "readChangeFeed";

  private ChangeFeed() {}

  /** Whether streams of {@code dataset} read its change feed: it is the target of an AUTO CDC flow. */
  public static boolean readsChanges(DataflowGraph graph, DatasetName dataset) {
    return graph.flowsInto(dataset).stream()
        .anyMatch(f -> f.mode().changesRows());
  }

  /** Whether {@code table} has a column named like one of the feed's, which a table with a feed cannot have. */
  public static boolean hasFeedColumns(StructType table) {
    return Identifiers.hasField(table, "_change_type") || Identifiers.hasField(table, "_commit_version")
        || Identifiers.hasField(table, "_commit_timestamp");
  }

  /** The table's columns followed by the feed's. */
  public static StructType schema(StructType table) {
    return table
        .add("_change_type", DataTypes.StringType)
        .add("_commit_version", DataTypes.LongType)
        .add("_commit_timestamp", DataTypes.TimestampType);
  }
}
