package io.sluice.delta;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.delta.DeltaOperations;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.Option;

/**
 * How a {@link KeyedCommit} appears in {@code DESCRIBE HISTORY}: the operation's name (the flow
 * kind that wrote it, e.g. {@code AUTO CDC}), its parameters, and row and file counts named as
 * MERGE names them, so that tools reading a MERGE's metrics read these too.
 */
final class KeyedOperation extends DeltaOperations.Operation {
  private final Map<String, Object> parameters;
  private final Map<String, String> metrics;
  private final Option<String> userMetadata;

  KeyedOperation(String name, Map<String, Object> parameters, Map<String, Long> metrics, Option<String> userMetadata) {
    super(name);
    this.parameters = Map.copyOf(parameters);
    this.metrics = new LinkedHashMap<>();
    metrics.forEach((metric, value) -> this.metrics.put(metric, String.valueOf(value)));
    this.userMetadata = userMetadata;
  }

  @Override
  public scala.collection.immutable.Map<String, Object> parameters() {
    return Scala.map(parameters);
  }

  /** The counts the writer took, whatever SQL metrics the transaction registered. */
  @Override
  public scala.collection.immutable.Map<String, String> transformMetrics(
      scala.collection.immutable.Map<String, SQLMetric> registered) {
    return Scala.map(metrics);
  }

  @Override
  public Option<String> userMetadata() {
    return userMetadata;
  }

  @Override
  public boolean changesData() {
    return true;
  }

  /** It writes new deletion vectors on files whose stats it widens, as Delta's DELETE does. */
  @Override
  public boolean checkAddFileWithDeletionVectorStatsAreNotTightBounds() {
    return true;
  }

  @Override
  public Option<Object> isInPlaceFileMetadataUpdate() {
    return Option.apply(false);
  }

  @Override
  public boolean canChangePartitionColumns() {
    return false;
  }
}
