package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.KindChecks;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.kinds.autocdc.AutoCdcValidator;
import io.sluice.kinds.autocdc.SnapshotValidator;
import io.sluice.kinds.mv.MaterializedViewValidator;
import io.sluice.kinds.replace.ReplaceUsingValidator;
import io.sluice.kinds.replace.ReplaceWhereValidator;
import io.sluice.kinds.sink.SinkValidator;
import org.apache.spark.sql.SparkSession;

/**
 * The checks of SEMANTICS §1.4 that depend on the kind of one resolved flow, chosen here as
 * {@link FlowPlanner} chooses executors: each keyed kind's and a sink's are in its package; an
 * append's (a stream, into a streaming table or a sink) is here.
 */
final class FlowKindChecks implements FlowMode.Visitor<Void> {
  /** Every kind's checks, and a sink's, for {@link io.sluice.graph.GraphResolver#resolve}. */
  static final KindChecks ALL = new KindChecks() {
    @Override
    public void checkFlow(SparkSession spark, ResolvedGraph graph, ResolvedFlow flow) {
      flow.definition().mode().accept(new FlowKindChecks(spark, graph, flow));
    }

    @Override
    public void checkSink(SparkSession spark, DatasetDefinition sink) {
      SinkValidator.validateSink(spark, sink);
    }
  };

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
    checkTarget();
    return null;
  }

  @Override
  public Void replaceUsing(FlowMode.ReplaceUsing mode) {
    ReplaceUsingValidator.validate(spark, graph, flow, mode);
    checkTarget();
    return null;
  }

  @Override
  public Void replaceWhere(FlowMode.ReplaceWhere mode) {
    ReplaceWhereValidator.validate(spark, graph, flow, mode);
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

  private void checkTarget() {
    DatasetDefinition target = graph.dataset(flow.target());
    if (target.type() == DatasetType.MATERIALIZED_VIEW) {
      MaterializedViewValidator.validate(flow, target);
    }
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
