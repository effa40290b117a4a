package io.sluice.kinds.replace;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.RowOrdering$;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The checks of SEMANTICS §2.5 on a REPLACE USING flow, each with its own error class. */
public final class ReplaceUsingValidator {
  private ReplaceUsingValidator() {}

  public static void validate(SparkSession spark, ResolvedGraph graph, ResolvedFlow flow, FlowMode.ReplaceUsing mode) {
    Origin origin = flow.definition().origin();
    String name = "REPLACE USING flow '" + flow.name() + "'";
    if (graph.dataset(flow.target()).type() != DatasetType.STREAMING_TABLE) {
      throw new GraphException(ErrorClass.REPLACE_USING_TARGET, origin, name + " needs a streaming table as its target");
    }
    List<ResolvedFlow> others = graph.flowsInto(flow.target()).stream().filter(f -> !f.name().equals(flow.name())).toList();
    if (!others.isEmpty()) {
      throw new GraphException(ErrorClass.REPLACE_USING_NOT_ALONE, origin, name + " must be the only flow into '"
          + flow.target() + "', but flow '" + others.get(0).name() + "' (" + others.get(0).definition().origin()
          + ") writes into it too");
    }
    if (!flow.streaming()) {
      throw new GraphException(ErrorClass.REPLACE_USING_SOURCE_NOT_STREAMING, origin,
          name + " needs a streaming source: read it with STREAM(...)");
    }
    if (mode.keys().isEmpty()) {
      throw new GraphException(ErrorClass.REPLACE_USING_WITHOUT_KEYS, origin, name + " names no key column");
    }
    StructType output = flow.schema();
    Set<String> seen = new HashSet<>();
    for (String key : mode.keys()) {
      if (!seen.add(Identifiers.columnKey(key))) {
        throw new GraphException(ErrorClass.REPLACE_USING_REPEATED_KEY, origin, name + " names key '" + key + "' twice");
      }
      StructField field = Identifiers.field(output, key).orElse(null);
      if (field == null) {
        throw new GraphException(ErrorClass.REPLACE_USING_KEY_NOT_FOUND, origin, name + ": key '" + key
            + "' is not a column of its query; the query returns " + String.join(", ", output.fieldNames()));
      }
      if (!orderable(field.dataType())) {
        throw new GraphException(ErrorClass.REPLACE_USING_KEY_NOT_ORDERABLE, origin, name + ": key '" + key + "' is of type "
            + field.dataType().simpleString() + ", which cannot be compared and sorted; choose another key");
      }
    }
    DataType sequence;
    try {
      sequence = SparkPlans.empty(spark, output, false).select(mode.sequence()).schema().fields()[0].dataType();
    } catch (Exception e) {
      throw new GraphException(ErrorClass.REPLACE_USING_SEQUENCE_NOT_FOUND, origin, name + ": SEQUENCE BY "
          + mode.sequence() + " does not resolve against its query's columns: " + SparkErrors.firstLine(e), e);
    }
    if (!orderable(sequence)) {
      throw new GraphException(ErrorClass.REPLACE_USING_SEQUENCE_NOT_ORDERABLE, origin, name + ": SEQUENCE BY "
          + mode.sequence() + " is of type " + sequence.simpleString() + ", which cannot be ordered");
    }
  }

  private static boolean orderable(DataType type) {
    return RowOrdering$.MODULE$.isOrderable(type);
  }
}
