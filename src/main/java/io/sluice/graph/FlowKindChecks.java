package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** The checks of SEMANTICS §1.4 that depend on the kind of one resolved flow. */
final class FlowKindChecks implements FlowMode.Visitor<Void> {
  private final SparkSession spark;
  private final ResolvedGraph graph;
  private final ResolvedFlow flow;

  FlowKindChecks(SparkSession spark, ResolvedGraph graph, ResolvedFlow flow) {
    this.spark = spark;
    this.graph = graph;
    this.flow = flow;
  }

  @Override
  public Void append(FlowMode.Append mode) {
    requireStreamIntoStreamingTable();
    return null;
  }

  @Override
  public Void replaceUsing(FlowMode.ReplaceUsing mode) {
    ReplaceUsingValidator.validate(spark, graph, flow, mode);
    requireStreamIntoStreamingTable();
    return null;
  }

  @Override
  public Void replaceWhere(FlowMode.ReplaceWhere mode) {
    Origin origin = flow.definition().origin();
    if (flow.streaming()) {
      throw new GraphException(ErrorClass.REPLACE_WHERE_STREAMING_SOURCE, origin,
          "REPLACE WHERE flow '" + flow.name() + "' runs as a batch on every update; read its source without STREAM");
    }
    StructType target = graph.schemas().get(flow.target());
    try {
      SparkPlans.empty(spark, target, false).where(mode.predicate()).schema();
    } catch (Exception e) {
      throw new GraphException(ErrorClass.INVALID_REPLACE_WHERE, origin,
          "the REPLACE WHERE predicate of flow '" + flow.name() + "' is not valid on '" + flow.target() + "': "
              + SparkErrors.firstLine(e), e);
    }
    return null;
  }

  @Override
  public Void autoCdc(FlowMode.AutoCdc mode) {
    AutoCdcValidator.validate(graph, flow, mode);
    return null;
  }

  @Override
  public Void autoCdcFromSnapshot(FlowMode.AutoCdcFromSnapshot mode) {
    SnapshotValidator.validate(graph, flow, mode);
    return null;
  }

  private void requireStreamIntoStreamingTable() {
    DatasetDefinition target = graph.dataset(flow.target());
    if (target.type() == DatasetType.SINK) {
      SinkValidator.validateFlow(flow, target);
      return;
    }
    if (target.type() == DatasetType.STREAMING_TABLE && !flow.streaming()) {
      throw new GraphException(ErrorClass.FLOW_NOT_STREAMING, flow.definition().origin(),
          "flow '" + flow.name() + "' into streaming table '" + target.name()
              + "' reads no stream; read its source with STREAM(...) or make '" + target.name()
              + "' a materialized view");
    }
  }
}
