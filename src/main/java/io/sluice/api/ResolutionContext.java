package io.sluice.api;

import io.sluice.graph.FlowQuery;
import io.sluice.graph.FlowResolution;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** A Java flow's {@link FlowContext}: the engine's {@link FlowResolution}, as the API shows it. */
final class ResolutionContext implements FlowContext {
  private final FlowResolution resolution;

  ResolutionContext(FlowResolution resolution) {
    this.resolution = resolution;
  }

  /** The engine's form of a Java flow's query. */
  static FlowQuery query(FlowFunction function) {
    return resolution -> function.apply(new ResolutionContext(resolution));
  }

  @Override
  public SparkSession spark() {
    return resolution.spark();
  }

  @Override
  public Dataset<Row> read(String name) {
    return resolution.read(name);
  }

  @Override
  public Dataset<Row> readStream(String name) {
    return resolution.readStream(name);
  }
}
