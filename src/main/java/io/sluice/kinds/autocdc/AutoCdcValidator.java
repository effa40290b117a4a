package io.sluice.kinds.autocdc;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.Identifiers;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The checks on an AUTO CDC flow that need the whole graph: its target, its source, its neighbours. */
public final class AutoCdcValidator {
  private AutoCdcValidator() {}

  public static void validate(ResolvedGraph graph, ResolvedFlow flow, FlowMode.AutoCdc mode) {
    Origin origin = flow.definition().origin();
    String name = "AUTO CDC flow '" + flow.name() + "'";
    DatasetDefinition target = streamingTarget(graph, flow, name);
    AutoCdcTableProperties.tombstoneThreshold(target);
    AutoCdcTableProperties.stateCompactionInterval(target);
    if (mode.once() && flow.streaming()) {
      throw new GraphException(ErrorClass.AUTO_CDC_ONCE_STREAMING_SOURCE, origin,
          name + " runs ONCE, as a batch: read its source without STREAM");
    }
    if (!mode.once() && !flow.streaming()) {
      throw new GraphException(ErrorClass.AUTO_CDC_SOURCE_NOT_STREAMING, origin,
          name + " needs a streaming source: FROM STREAM(source), or AUTO CDC ONCE for a one-time batch");
    }
    for (ResolvedFlow other : graph.flowsInto(flow.target())) {
      if (other.definition().mode() instanceof FlowMode.AutoCdcFromSnapshot) {
        continue; // SnapshotValidator checks the pair.
      }
      if (other.definition().mode() instanceof FlowMode.AutoCdc otherMode) {
        if (!sameKeys(mode.keys(), otherMode.keys()) || mode.scdType() != otherMode.scdType()) {
          throw new GraphException(ErrorClass.AUTO_CDC_TARGET_SHARED, origin, name + " writes into '" + target.name()
              + "' with KEYS (" + String.join(", ", mode.keys()) + ") as SCD type " + mode.scdType() + ", but flow '"
              + other.name() + "' (" + other.definition().origin() + ") uses KEYS ("
              + String.join(", ", otherMode.keys()) + ") as SCD type " + otherMode.scdType());
        }
      } else {
        throw new GraphException(ErrorClass.AUTO_CDC_TARGET_SHARED, origin, name + " writes into '" + target.name()
            + "', so every flow into it must be an AUTO CDC flow, but flow '" + other.name() + "' ("
            + other.definition().origin() + ") is not; give the AUTO CDC flow a table of its own");
      }
    }
    if (mode.scdType().keepsHistory()) {
      checkVersionColumns(graph, flow, AutoCdcColumns.of(flow).sequenceType(), "the type of its SEQUENCE BY");
    }
  }

  /** The flow's target, which must be a streaming table. */
  static DatasetDefinition streamingTarget(ResolvedGraph graph, ResolvedFlow flow, String name) {
    DatasetDefinition target = graph.dataset(flow.target());
    if (target.type() != DatasetType.STREAMING_TABLE) {
      throw new GraphException(ErrorClass.AUTO_CDC_TARGET, flow.definition().origin(),
          name + " needs a streaming table as its target; '" + target.name() + "' is a " + target.type());
    }
    return target;
  }

  /** SCD type 2 into a table with declared columns: they must include the version columns, of the versions' type. */
  static void checkVersionColumns(ResolvedGraph graph, ResolvedFlow flow, DataType type, String why) {
    DatasetDefinition target = graph.dataset(flow.target());
    if (target.declaredSchema().isEmpty()) {
      return;
    }
    StructType declared = graph.schemas().get(target.name());
    for (String column : List.of(AutoCdcColumns.START_AT, AutoCdcColumns.END_AT)) {
      Optional<StructField> field = Identifiers.field(declared, column);
      if (field.isEmpty() || !field.get().dataType().equals(type)) {
        throw new GraphException(ErrorClass.AUTO_CDC_SCD2_SCHEMA, target.origin(), "the declared columns of '"
            + target.name() + "' need " + column + " " + type.sql() + " for the SCD type 2 flow '"
            + flow.name() + "' (" + why + ")"
            + field.map(f -> ", not " + f.dataType().sql()).orElse(""));
      }
    }
  }

  static boolean sameKeys(List<String> a, List<String> b) {
    return a.size() == b.size() && IntStream.range(0, a.size()).allMatch(i -> Identifiers.sameColumn(a.get(i), b.get(i)));
  }
}
