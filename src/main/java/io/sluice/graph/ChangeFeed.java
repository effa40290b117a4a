package io.sluice.graph;

import java.util.List;
import java.util.Optional;
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

  /**
   * Why {@code dataset}'s table keeps a change data feed that its definition does not ask for,
   * if the pipeline reads its changes: a flow streams it while keyed flows change its rows, or
   * snapshot and change-feed flows share it (each snapshot's changes become the shared state's
   * events), or keyed flows change its rows and a materialized view refreshes incrementally from it. Otherwise its table has no feed, as Delta's default: its commits then write no
   * feed files that nobody reads.
   */
  public static Optional<String> keptFor(ResolvedGraph graph, DatasetName dataset) {
    List<String> streamedBy = graph.flows().stream()
        .filter(f -> f.streamingInputs().contains(dataset))
        .map(f -> f.name().name())
        .toList();
    if (readsChanges(graph.graph(), dataset) && !streamedBy.isEmpty()) {
      return Optional.of("streamed by " + String.join(", ", streamedBy));
    }
    List<FlowMode> modes = graph.flowsInto(dataset).stream().map(f -> f.definition().mode()).toList();
    List<String> refreshedFrom = graph.flows().stream()
        .filter(f -> f.inputs().contains(dataset) && !f.streamingInputs().contains(dataset))
        .filter(f -> graph.dataset(f.target()).type() == DatasetType.MATERIALIZED_VIEW
            && graph.dataset(f.target()).refreshPolicy() != RefreshPolicy.FULL)
        .map(f -> f.target().name())
        .toList();
    if (modes.stream().anyMatch(FlowMode::keyed) && !refreshedFrom.isEmpty()) {
      return Optional.of("refreshed incrementally from it: " + String.join(", ", refreshedFrom));
    }
    if (modes.stream().anyMatch(FlowMode::comparesSnapshots)
        && modes.stream().anyMatch(m -> m.changesRows() && !m.comparesSnapshots())) {
      return Optional.of("snapshot and change-feed flows share it");
    }
    return Optional.empty();
  }

  /** The table's columns followed by the feed's. */
  public static StructType schema(StructType table) {
    return table
        .add("_change_type", DataTypes.StringType)
        .add("_commit_version", DataTypes.LongType)
        .add("_commit_timestamp", DataTypes.TimestampType);
  }
}
