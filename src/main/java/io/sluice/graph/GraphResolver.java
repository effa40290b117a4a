package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Analyses every flow's query without touching data: reads of pipeline datasets see empty
 * stand-ins with the upstream schema. Flows are retried until all resolve; those left
 * over read each other in a cycle.
 */
public final class GraphResolver {
  private final SparkSession spark;
  private final DataflowGraph graph;
  private final Map<DatasetName, StructType> schemas = new HashMap<>();
  private final Map<DatasetName, Dataset<Row>> views = new HashMap<>();
  private final Map<DatasetName, ResolvedFlow> resolved = new LinkedHashMap<>();

  private GraphResolver(SparkSession spark, DataflowGraph graph) {
    this.spark = spark;
    this.graph = graph;
  }

  /** Resolves and validates {@code graph}; {@code kinds} checks each flow's kind and each sink. */
  public static ResolvedGraph resolve(SparkSession spark, DataflowGraph graph, KindChecks kinds) {
    GraphValidator.validateStructure(graph);
    GraphResolver resolver = new GraphResolver(spark, graph);
    resolver.resolveAll();
    ResolvedGraph result = new ResolvedGraph(graph, new ArrayList<>(resolver.resolved.values()), resolver.schemas);
    GraphValidator.validateResolved(spark, result, kinds);
    return result;
  }

  private void resolveAll() {
    List<FlowDefinition> pending = new ArrayList<>(graph.flows());
    Map<DatasetName, DatasetName> blockedOn = new LinkedHashMap<>();
    while (!pending.isEmpty()) {
      boolean progress = false;
      for (FlowDefinition flow : List.copyOf(pending)) {
        Optional<DatasetName> blocker = tryResolve(flow);
        if (blocker.isEmpty()) {
          pending.remove(flow);
          blockedOn.remove(flow.name());
          progress = true;
        } else {
          blockedOn.put(flow.name(), blocker.get());
        }
      }
      if (!progress) {
        throw cycle(pending, blockedOn);
      }
    }
  }

  /** Resolves one flow, or names the dataset it waits for. */
  private Optional<DatasetName> tryResolve(FlowDefinition flow) {
    FlowResolution resolution = new FlowResolution(spark, graph, flow, this::readStandIn);
    Dataset<Row> df;
    try {
      df = FlowConf.withSqlConf(spark, flow.sqlConf(), () -> flow.query().build(resolution));
    } catch (UnresolvedDependencyException e) {
      return Optional.of(e.dataset());
    } catch (Exception e) {
      throw SparkErrors.isAnalysisError(e) ? queryError(flow, e) : SparkErrors.unchecked(e);
    }
    FlowOutput output = flow.mode().accept(new Output(flow, df.schema(), resolution));
    resolved.put(flow.name(), new ResolvedFlow(
        flow, df.schema(), df.isStreaming(), resolution.inputs(), resolution.streamingInputs(), output,
        ExternalSources.of(df), df.queryExecution().analyzed()));
    DatasetDefinition target = graph.datasets().get(flow.target());
    if (target.type().isView()) {
      views.put(target.name(), df);
    }
    boolean allFlowsResolved = graph.flowsInto(target.name()).stream().allMatch(f -> resolved.containsKey(f.name()));
    if (allFlowsResolved) {
      schemas.put(target.name(), schemaOf(target));
    }
    return Optional.empty();
  }

  private Dataset<Row> readStandIn(DatasetDefinition dataset, boolean streaming) {
    if (!schemas.containsKey(dataset.name())) {
      throw new UnresolvedDependencyException(dataset.name());
    }
    if (dataset.type().isView()) {
      return views.get(dataset.name());
    }
    StructType schema = schemas.get(dataset.name());
    boolean changes = streaming && ChangeFeed.readsChanges(graph, dataset.name());
    return SparkPlans.empty(spark, changes ? ChangeFeed.schema(schema) : schema, streaming);
  }

  private static GraphException queryError(FlowDefinition flow, Exception e) {
    String condition = ((AnalysisException) e).getCondition();
    return GraphException.analysisError(condition, flow.origin(),
        "flow '" + flow.name() + "': " + SparkErrors.firstLine(e), e);
  }

  /** A table's schema: the declared one, or the columns of all its flows by name, in order. */
  private StructType schemaOf(DatasetDefinition dataset) {
    if (dataset.declaredSchema().isPresent()) {
      return DeclaredSchema.parse(dataset);
    }
    Map<String, StructField> columns = new LinkedHashMap<>();
    for (FlowDefinition flow : graph.flowsInto(dataset.name())) {
      for (StructField field : resolved.get(flow.name()).writtenSchema().fields()) {
        String key = Identifiers.columnKey(field.name());
        // Nullable: another flow, or a later version of this one, may leave the column out.
        StructField column = new StructField(field.name(), field.dataType(), true, field.metadata());
        StructField previous = columns.putIfAbsent(key, column);
        if (previous != null && !previous.dataType().equals(field.dataType())) {
          throw new GraphException(ErrorClass.INCOMPATIBLE_FLOW_SCHEMAS, flow.origin(),
              "flow '" + flow.name() + "' writes column '" + field.name() + "' as "
                  + field.dataType().simpleString() + " into '" + dataset.name()
                  + "', but another flow writes it as " + previous.dataType().simpleString());
        }
      }
    }
    return new StructType(columns.values().toArray(StructField[]::new));
  }

  private GraphException cycle(List<FlowDefinition> pending, Map<DatasetName, DatasetName> blockedOn) {
    Map<DatasetName, FlowDefinition> pendingByTarget = new HashMap<>();
    pending.forEach(f -> pendingByTarget.putIfAbsent(f.target(), f));
    FlowDefinition start = pending.get(0);
    Set<DatasetName> seen = new HashSet<>();
    LinkedHashSet<DatasetName> path = new LinkedHashSet<>();
    FlowDefinition current = start;
    while (current != null && seen.add(current.target())) {
      path.add(current.target());
      current = pendingByTarget.get(blockedOn.get(current.name()));
    }
    List<String> names = new ArrayList<>();
    boolean inCycle = false;
    DatasetName repeated = current == null ? null : current.target();
    for (DatasetName name : path) {
      inCycle |= name.equals(repeated);
      if (inCycle) {
        names.add(name.name());
      }
    }
    if (repeated != null) {
      names.add(repeated.name());
    }
    FlowDefinition culprit = repeated == null ? start : pendingByTarget.get(repeated);
    return new GraphException(ErrorClass.CYCLIC_DEPENDENCY, culprit.origin(),
        "datasets read each other in a cycle: " + String.join(" -> ", names));
  }

  /** What a flow writes: its query's rows, or an AUTO CDC flow's clauses resolved against its query's columns. */
  private final class Output implements FlowMode.Visitor<FlowOutput> {
    private final FlowDefinition flow;
    private final StructType schema;
    private final FlowResolution resolution;

    Output(FlowDefinition flow, StructType schema, FlowResolution resolution) {
      this.flow = flow;
      this.schema = schema;
      this.resolution = resolution;
    }

    @Override
    public FlowOutput append(FlowMode.Append mode) {
      return new FlowOutput.QueryRows(schema);
    }

    @Override
    public FlowOutput replaceUsing(FlowMode.ReplaceUsing mode) {
      return new FlowOutput.QueryRows(schema);
    }

    @Override
    public FlowOutput replaceWhere(FlowMode.ReplaceWhere mode) {
      return new FlowOutput.QueryRows(schema);
    }

    @Override
    public FlowOutput autoCdc(FlowMode.AutoCdc mode) {
      return AutoCdcColumns.resolve(spark, flow, mode, schema);
    }

    @Override
    public FlowOutput autoCdcFromSnapshot(FlowMode.AutoCdcFromSnapshot mode) {
      DataType versionType = mode.versions().isEmpty() ? DataTypes.TimestampType
          : FlowConf.withSqlConf(spark, flow.sqlConf(), () -> mode.versions().get().versionType(resolution));
      return AutoCdcColumns.resolveSnapshot(flow, mode, schema, versionType);
    }
  }
}
