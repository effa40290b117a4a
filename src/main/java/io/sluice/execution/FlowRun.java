package io.sluice.execution;

import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventLog;
import io.sluice.eventlog.EventType;
import io.sluice.expectations.BatchQuality;
import io.sluice.expectations.ExpectationChecker;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.FlowConf;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.graph.TablePins;
import java.time.Instant;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * One flow's execution in one update: builds its query against the real tables and
 * processes its batches through expectations into a {@link BatchSink}, reporting each.
 */
public final class FlowRun {
  private final SparkSession spark;
  private final UpdateContext context;
  private final ResolvedGraph resolved;
  private final DataflowGraph graph;
  private final ResolvedFlow flow;
  private final DatasetDefinition target;
  private final StructType targetSchema;
  private final EventLog events;
  private final FlowMetrics metrics;

  /** The flow's run in {@code context}'s round; {@code metrics} sums its batches over the update. */
  public FlowRun(UpdateContext context, ResolvedGraph resolved, ResolvedFlow flow, FlowMetrics metrics) {
    this.spark = context.spark();
    this.context = context;
    this.resolved = resolved;
    this.graph = resolved.graph();
    this.flow = flow;
    this.target = graph.datasets().get(flow.target());
    this.targetSchema = resolved.schemas().get(flow.target());
    this.events = context.events();
    this.metrics = metrics;
  }

  public SparkSession spark() {
    return spark;
  }

  public ResolvedFlow flow() {
    return flow;
  }

  public DataflowGraph graph() {
    return graph;
  }

  /** Every flow into this flow's target, this one included. */
  public List<ResolvedFlow> flowsIntoTarget() {
    return resolved.flowsInto(flow.target());
  }

  /** When the round started: the version of a periodic snapshot. */
  public Instant roundStart() {
    return context.roundStart();
  }

  public DatasetDefinition target() {
    return target;
  }

  public StructType targetSchema() {
    return targetSchema;
  }

  public FlowMetrics metrics() {
    return metrics;
  }

  /** The flow's DataFrame over the real sources, with its SQL settings in force. */
  public Dataset<Row> buildQuery() {
    return buildQuery(TablePins.NONE);
  }

  /** The flow's DataFrame, reading tables as a batch at the versions {@code pins} gives. */
  public Dataset<Row> buildQuery(TablePins pins) {
    return withFlowConf(() -> flow.definition().query().build(resolution(pins)));
  }

  /** A context to build the flow's queries in, over the real sources. */
  public FlowResolution resolution() {
    return resolution(TablePins.NONE);
  }

  private FlowResolution resolution(TablePins pins) {
    return new FlowResolution(spark, graph, flow.definition(), context.reader(), pins);
  }

  public <T> T withFlowConf(Supplier<T> body) {
    return FlowConf.withSqlConf(spark, flow.definition().sqlConf(), body);
  }

  /** Records a note about this flow in the event log. */
  public void info(String message, Map<String, Object> details) {
    record(EventLevel.INFO, message, details);
  }

  /** Records a warning about this flow in the event log. */
  public void warn(String message, Map<String, Object> details) {
    record(EventLevel.WARN, message, details);
  }

  /**
   * Says that the flow has work to do in this round, which it knows only once it has looked at its
   * sources: what its batches will need is prepared from here on ({@link CaseMappings}).
   */
  public void starting() {
    CaseMappings.buildAheadIfCalled(flow.definition());
  }

  /**
   * Records that the flow found nothing new to do; said in an update's first round only, not in
   * every round of a continuous update.
   */
  public void unchanged(String message, Map<String, Object> details) {
    if (context.firstRound()) {
      record(EventLevel.INFO, message, details);
    }
  }

  /**
   * Records how the flow planned this round's work ({@code planning_information}); a plan that
   * changes nothing is recorded in an update's first round only, as {@link #unchanged} is.
   */
  public void planned(String message, Map<String, Object> details, boolean changesSomething) {
    if (changesSomething || context.firstRound()) {
      events.event(EventLevel.INFO, EventType.PLANNING_INFORMATION, message)
          .flow(flow.name().name())
          .dataset(target.name().name())
          .details(details)
          .record();
    }
  }

  private void record(EventLevel level, String message, Map<String, Object> details) {
    events.event(level, EventType.FLOW_PROGRESS, "flow '" + flow.name() + "': " + message)
        .flow(flow.name().name())
        .dataset(target.name().name())
        .details(details)
        .record();
  }

  /** Checks expectations on one batch, writes what passes through {@code sink}, and reports it. */
  public void processBatch(Dataset<Row> batch, long batchId, BatchSink sink) {
    if (context.stopping().getAsBoolean()) {
      throw new FlowStoppedException();
    }
    // AUTO CDC sinks take change events, in the source's shape; the others take table rows.
    boolean changeEvents = flow.output().changeEvents();
    ExpectationChecker checker = new ExpectationChecker(target.name().name(), flow.name().name(),
        target.expectations(), sink.requirements(), schema -> changeEvents ? List.of(ColumnNames.cols(List.of(schema.fieldNames())))
            : TableWriter.columns(schema, targetSchema), sink.sampledKey());
    BatchSink.Taken taken = sink.take(new IncomingBatch(batch, batchId, checker, changeEvents, targetSchema));
    BatchQuality quality = taken.quality();
    BatchSink.Written written = taken.written();
    metrics.addBatch(written.rows(), quality, written.metrics());
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("batch_id", batchId);
    details.put("num_input_rows", quality.inputRows());
    details.put("num_output_rows", written.rows());
    details.put("data_quality", quality.toDetails());
    details.putAll(written.metrics());
    events.event(EventLevel.METRICS, EventType.FLOW_PROGRESS,
            "batch " + batchId + ": " + written.rows() + " rows written"
                + (quality.droppedRows() > 0 ? ", " + quality.droppedRows() + " dropped" : ""))
        .flow(flow.name().name())
        .dataset(target.name().name())
        .batch(batchId)
        .details(details)
        .record();
  }
}
