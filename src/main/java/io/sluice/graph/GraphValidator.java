package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.expectations.Expectation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** The checks of SEMANTICS §1.4 that do not need data: before and after resolution. */
public final class GraphValidator {
  private GraphValidator() {}

  /** Checks that need no query analysed: targets, flow counts, names. */
  public static void validateStructure(DataflowGraph graph) {
    for (FlowDefinition flow : graph.flows()) {
      DatasetDefinition target = graph.datasets().get(flow.target());
      if (target == null) {
        throw new GraphException(ErrorClass.FLOW_TARGET_NOT_DEFINED, flow.origin(),
            "flow '" + flow.name() + "' writes into '" + flow.target()
                + "', which this pipeline does not define; declare it with CREATE STREAMING TABLE "
                + flow.target());
      }
      if (!flow.implicit() && target.type().isView()) {
        throw new GraphException(ErrorClass.FLOW_INTO_VIEW, flow.origin(),
            "flow '" + flow.name() + "' writes into " + target.type() + " '" + target.name()
                + "'; flows can only write into tables and sinks");
      }
      if (target.type() == DatasetType.SINK && !flow.mode().appends()) {
        throw new GraphException(ErrorClass.SINK_FLOW_KIND, flow.origin(), "flow '" + flow.name() + "' into sink '"
            + target.name() + "' is not an append flow; a sink takes append flows only (CREATE FLOW f AS INSERT INTO "
            + target.name().name() + " BY NAME query): AUTO CDC and REPLACE flows need a streaming table");
      }
    }
    for (DatasetDefinition dataset : graph.datasets().values()) {
      List<FlowDefinition> flows = graph.flowsInto(dataset.name());
      if (flows.isEmpty()) {
        throw new GraphException(ErrorClass.DATASET_WITHOUT_FLOW, dataset.origin(), dataset.type() == DatasetType.SINK
            ? "sink '" + dataset.name() + "' has no flow writing into it: CREATE FLOW f AS INSERT INTO "
                + dataset.name().name() + " BY NAME query"
            : dataset.type() + " '" + dataset.name() + "' has no query and no flow writes into it");
      }
      if (dataset.type() == DatasetType.MATERIALIZED_VIEW && flows.size() > 1) {
        boolean hasQuery = flows.stream().anyMatch(FlowDefinition::implicit);
        FlowDefinition extra = hasQuery ? flows.stream().filter(f -> !f.implicit()).findFirst().orElseThrow() : flows.get(1);
        throw new GraphException(ErrorClass.MULTIPLE_FLOWS_INTO_MATERIALIZED_VIEW, extra.origin(),
            "materialized view '" + dataset.name() + "' has one defining query; flow '"
                + extra.name() + "' cannot also write into it");
      }
      Set<String> names = new HashSet<>();
      for (Expectation expectation : dataset.expectations()) {
        if (!names.add(expectation.name().toLowerCase(Locale.ROOT))) {
          throw new GraphException(ErrorClass.DUPLICATE_EXPECTATION, expectation.origin(),
              "dataset '" + dataset.name() + "' has two expectations named '" + expectation.name() + "'");
        }
      }
    }
  }

  /**
   * Checks on analysed queries: streaming kinds, declared columns, expectations, partitions;
   * {@code kinds} checks each flow's kind and each sink.
   */
  public static void validateResolved(SparkSession spark, ResolvedGraph graph, KindChecks kinds) {
    for (ResolvedFlow flow : graph.flows()) {
      DatasetDefinition target = graph.dataset(flow.target());
      Origin origin = flow.definition().origin();
      for (String column : flow.schema().fieldNames()) {
        if (Identifiers.isReserved(column)) {
          throw new GraphException(ErrorClass.RESERVED_COLUMN_NAME, origin, "flow '" + flow.name() + "' has a column '"
              + column + "'; names starting with " + Identifiers.RESERVED_PREFIX + " are Sluice's own: rename it");
        }
      }
      if (target.type().isTable()) {
        refuseNamesDeltaCannotStore(flow, target);
      }
      kinds.checkFlow(spark, graph, flow);
      if (target.type() == DatasetType.MATERIALIZED_VIEW && flow.streaming()) {
        throw new GraphException(ErrorClass.STREAMING_QUERY_IN_MATERIALIZED_VIEW, origin,
            "materialized view '" + target.name()
                + "' reads a stream; remove STREAM(...) or make it a streaming table");
      }
      if (target.declaredSchema().isPresent()) {
        StructType declared = graph.schemas().get(target.name());
        for (String column : flow.writtenSchema().fieldNames()) {
          if (!Identifiers.hasField(declared, column)) {
            throw new GraphException(ErrorClass.COLUMN_NOT_IN_SCHEMA, origin,
                "flow '" + flow.name() + "' writes column '" + column + "', which the declared columns of '"
                    + target.name() + "' do not have");
          }
        }
      }
    }
    for (DatasetDefinition dataset : graph.graph().datasets().values()) {
      if (dataset.type() == DatasetType.SINK) {
        kinds.checkSink(spark, dataset);
      }
      if (!dataset.type().isTable()) {
        continue;
      }
      StructType schema = graph.schemas().get(dataset.name());
      validateZOrder(dataset, schema);
      List<String> layoutColumns = new ArrayList<>(dataset.partitionColumns());
      layoutColumns.addAll(dataset.clusterColumns());
      for (String column : layoutColumns) {
        if (!Identifiers.hasField(schema, column)) {
          throw new GraphException(ErrorClass.UNKNOWN_PARTITION_COLUMN, dataset.origin(),
              "'" + dataset.name() + "' is partitioned or clustered by '" + column + "', which is not one of its columns");
        }
      }
      // An AUTO CDC target's expectations check the change events, which have the source's columns.
      Optional<StructType> changes = graph.flowsInto(dataset.name()).stream()
          .filter(f -> f.output().changeEvents()).map(ResolvedFlow::schema).findFirst();
      validateExpectations(spark, dataset, changes.orElse(schema));
    }
  }

  private static void validateZOrder(DatasetDefinition table, StructType schema) {
    String columns = table.properties().get(DatasetDefinition.Z_ORDER_COLUMNS);
    if (columns == null || columns.isBlank()) {
      return;
    }
    if (!table.clusterColumns().isEmpty()) {
      throw new GraphException(ErrorClass.INVALID_TABLE_PROPERTY, table.origin(), "'" + table.name() + "' has "
          + DatasetDefinition.Z_ORDER_COLUMNS + " and CLUSTER BY; maintenance clusters it by its CLUSTER BY columns: remove one");
    }
    for (String column : columns.split(",")) {
      if (!Identifiers.hasField(schema, column.trim())) {
        throw new GraphException(ErrorClass.INVALID_TABLE_PROPERTY, table.origin(), DatasetDefinition.Z_ORDER_COLUMNS
            + " of '" + table.name() + "' names '" + column.trim() + "', which is not one of its columns ("
            + String.join(", ", schema.fieldNames()) + ")");
      }
    }
  }

  private static void validateExpectations(SparkSession spark, DatasetDefinition dataset, StructType schema) {
    Dataset<Row> empty = spark.createDataFrame(List.of(), schema);
    for (Expectation expectation : dataset.expectations()) {
      try {
        empty.selectExpr(expectation.condition()).schema();
      } catch (Exception e) {
        throw new GraphException(ErrorClass.INVALID_EXPECTATION, expectation.origin(),
            "expectation '" + expectation.name() + "' on '" + dataset.name() + "' is not valid: "
                + SparkErrors.firstLine(e), e);
      }
    }
  }

  /** The characters Delta refuses in a column name unless the table maps column names. */
  private static final String DELTA_REFUSED = " ,;{}()\n\t=";
  private static final String COLUMN_MAPPING = "delta.columnMapping.mode";

  /**
   * A column name Delta stores only with column mapping (a space, a comma, ...) is refused here,
   * naming the column, the table and what to do, rather than by Delta's message when the table is
   * made. AUTO CDC keeps the columns in its state, a table of its own without column mapping, so
   * there the column has to be renamed.
   */
  private static void refuseNamesDeltaCannotStore(ResolvedFlow flow, DatasetDefinition target) {
    String mapping = target.properties().get(COLUMN_MAPPING);
    boolean mapped = mapping != null && !mapping.equalsIgnoreCase("none");
    for (String column : flow.writtenSchema().fieldNames()) {
      if (column.chars().noneMatch(c -> DELTA_REFUSED.indexOf(c) >= 0)
          || (mapped && !flow.definition().mode().changesRows())) {
        continue;
      }
      String fix = flow.definition().mode().changesRows()
          ? "rename it in the flow's query: AUTO CDC keeps the columns in its state, which does not map names"
          : "rename it, or give '" + target.name().name() + "' TBLPROPERTIES ('" + COLUMN_MAPPING + "' = 'name')";
      throw new GraphException(ErrorClass.COLUMN_NAME_NEEDS_MAPPING, flow.definition().origin(), "flow '" + flow.name()
          + "' writes column '" + column + "' into '" + target.name() + "': Delta stores a name with a space or one of"
          + " ,;{}()= only in a table that maps column names; " + fix);
    }
  }
}
