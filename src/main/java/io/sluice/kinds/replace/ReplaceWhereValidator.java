package io.sluice.kinds.replace;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** The checks on a REPLACE WHERE flow (SEMANTICS §3): it reads a batch, and its predicate is valid on its target. */
public final class ReplaceWhereValidator {
  private ReplaceWhereValidator() {}

  public static void validate(SparkSession spark, ResolvedGraph graph, ResolvedFlow flow, FlowMode.ReplaceWhere mode) {
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
  }
}
