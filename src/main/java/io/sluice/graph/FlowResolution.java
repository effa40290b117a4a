package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The context one flow's query is built in. It routes reads of pipeline datasets to a
 * {@link DatasetReader}, records them as the flow's inputs, and refuses a streaming read
 * of a batch-only dataset. Batch reads of tables go through its {@link TablePins} first.
 */
public final class FlowResolution {
  private final SparkSession spark;
  private final DataflowGraph graph;
  private final FlowDefinition flow;
  private final DatasetReader reader;
  private final TablePins pins;
  private final Set<DatasetName> inputs = new LinkedHashSet<>();
  private final Set<DatasetName> streamingInputs = new LinkedHashSet<>();

  public FlowResolution(SparkSession spark, DataflowGraph graph, FlowDefinition flow, DatasetReader reader) {
    this(spark, graph, flow, reader, TablePins.NONE);
  }

  public FlowResolution(
      SparkSession spark, DataflowGraph graph, FlowDefinition flow, DatasetReader reader, TablePins pins) {
    this.spark = spark;
    this.graph = graph;
    this.flow = flow;
    this.reader = reader;
    this.pins = pins;
  }

  public SparkSession spark() {
    return spark;
  }

  public FlowDefinition flow() {
    return flow;
  }

  /**
   * Whether {@code read_files} and other sources stream by default: they do for a streaming
   * flow into a streaming table or a sink (not for REPLACE WHERE, ONCE or snapshot flows, which read batches).
   */
  public boolean streamingByDefault() {
    return flow.mode().streaming()
        && graph.dataset(flow.target())
            .map(d -> d.type() == DatasetType.STREAMING_TABLE || d.type() == DatasetType.SINK).orElse(false);
  }

  public Set<DatasetName> inputs() {
    return Set.copyOf(inputs);
  }

  /** The inputs read as streams: their checkpointed progress depends on the table staying the same. */
  public Set<DatasetName> streamingInputs() {
    return Set.copyOf(streamingInputs);
  }

  /** A batch read of a dataset of this pipeline, or of any catalog table. */
  public Dataset<Row> read(String name) {
    List<String> parts = parseName(name);
    return readPipelineDataset(parts, null, null, false)
        .or(() -> readPinnedTable(parts, null, null))
        .orElseGet(() -> spark.read().table(name));
  }

  /** A streaming read of a dataset of this pipeline, or of any catalog table. */
  public Dataset<Row> readStream(String name) {
    return readPipelineDataset(parseName(name), null, null, true)
        .orElseGet(() -> spark.readStream().table(name));
  }

  /**
   * Reads a dataset of this pipeline if {@code parts} names one (unqualified parts take the
   * given defaults, or the graph's), or returns empty for any other table.
   */
  public Optional<Dataset<Row>> readPipelineDataset(
      List<String> parts, String catalog, String database, boolean streaming) {
    if (parts.size() > 3) {
      return Optional.empty();
    }
    DatasetName name = qualify(parts, catalog, database);
    Optional<DatasetDefinition> dataset = graph.dataset(name);
    if (dataset.isEmpty()) {
      return Optional.empty();
    }
    DatasetDefinition definition = dataset.get();
    if (definition.type() == DatasetType.SINK) {
      throw new GraphException(ErrorClass.SINK_READ, flow.origin(), "flow '" + flow.name() + "' reads sink '"
          + definition.name() + "'; a sink is written, never read: read the table its flow reads");
    }
    if (streaming && definition.type() == DatasetType.MATERIALIZED_VIEW) {
      throw batchOnly(definition);
    }
    inputs.add(name);
    if (streaming) {
      streamingInputs.add(name);
    }
    Optional<Dataset<Row>> pinned = streaming || !definition.type().isTable() ? Optional.empty() : pins.read(name);
    Dataset<Row> df = pinned.orElseGet(() -> reader.read(definition, streaming));
    if (streaming && !df.isStreaming()) {
      throw batchOnly(definition);
    }
    return Optional.of(df);
  }

  /**
   * Reads a table that is not the pipeline's, as a batch, at its pinned version; empty if it
   * has none, and Spark's analyser then resolves the name.
   */
  public Optional<Dataset<Row>> readPinnedTable(List<String> parts, String catalog, String database) {
    if (parts.size() > 3) {
      return Optional.empty();
    }
    return pins.read(qualify(parts, catalog, database));
  }

  private DatasetName qualify(List<String> parts, String catalog, String database) {
    DatasetName defaults = flow.target();
    return DatasetName.of(parts,
        catalog == null ? defaults.catalog() : catalog,
        database == null ? defaults.database() : database);
  }

  /**
   * An empty batch with the target's declared columns, less SCD type 2's version columns:
   * the shape of snapshots that only a run can produce (a Java snapshot function's).
   */
  public Dataset<Row> declaredSnapshotColumns() {
    DatasetDefinition target = graph.datasets().get(flow.target());
    if (target == null || target.declaredSchema().isEmpty()) {
      throw new GraphException(ErrorClass.SNAPSHOT_FUNCTION_WITHOUT_SCHEMA, flow.origin(), "flow '" + flow.name()
          + "' takes its snapshots from a function, whose columns are known only when it runs; declare the columns of '"
          + flow.target() + "' with schema(...)");
    }
    StructType declared = DeclaredSchema.parse(target);
    StructType snapshot = new StructType();
    for (StructField field : declared.fields()) {
      if (!Identifiers.sameColumn(field.name(), AutoCdcColumns.START_AT)
          && !Identifiers.sameColumn(field.name(), AutoCdcColumns.END_AT)) {
        snapshot = snapshot.add(field);
      }
    }
    return SparkPlans.empty(spark, snapshot, false);
  }

  private GraphException batchOnly(DatasetDefinition source) {
    return new GraphException(ErrorClass.STREAMING_READ_OF_BATCH_DATASET, flow.origin(),
        "flow '" + flow.name() + "' reads " + source.type() + " '" + source.name()
            + "' as a stream, but it is batch-only; read it without STREAM");
  }

  private List<String> parseName(String name) {
    return SparkPlans.parseName(spark, name);
  }
}
