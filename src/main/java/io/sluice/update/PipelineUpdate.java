package io.sluice.update;

import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventListener;
import io.sluice.eventlog.EventLog;
import io.sluice.eventlog.EventType;
import io.sluice.eventlog.FlowState;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.CommitTag;
import io.sluice.execution.FlowMetrics;
import io.sluice.execution.FlowRun;
import io.sluice.graph.ChangeFeed;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetReader;
import io.sluice.graph.DatasetType;
import io.sluice.graph.GraphResolver;
import io.sluice.graph.Identifiers;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.graph.SparkErrors;
import io.sluice.sink.SinkWrites;
import io.sluice.spec.LibraryLoader;
import io.sluice.spec.PipelineSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One triggered update of a pipeline (SEMANTICS §1.4, §1.5): load and resolve the whole
 * graph before touching data, set up tables, then run the flows in dependency order. A
 * failed flow fails the update; flows that read what it writes are skipped, the others run.
 */
public final class PipelineUpdate {
  private static final Duration EVENT_FLUSH_INTERVAL = Duration.ofSeconds(30);
  private final SparkSession spark;
  private final PipelineSpec spec;
  private final EventLog events;
  private final Checkpoints checkpoints;

  private PipelineUpdate(SparkSession spark, PipelineSpec spec, List<EventListener> listeners) {
    this.spark = spark;
    this.spec = spec;
    this.events = new EventLog(spark, spec.storage(), spec.name(), UUID.randomUUID().toString());
    this.checkpoints = new Checkpoints(spec.storage());
    listeners.forEach(events::addListener);
  }

  /** Runs one update; the caller holds the {@link PipelineLock}. */
  public static UpdateResult run(SparkSession spark, PipelineSpec spec, UpdateOptions options, List<EventListener> listeners) {
    return new PipelineUpdate(spark, spec, listeners).run(options);
  }

  /** Loads, resolves and validates the pipeline without writing anything (dry run). */
  public static ResolvedGraph validate(SparkSession spark, PipelineSpec spec) {
    DataflowGraph graph = LibraryLoader.load(spec);
    useDefaultNamespace(spark, graph, false);
    ResolvedGraph resolved = GraphResolver.resolve(spark, graph);
    SinkWrites.checkReachable(resolved);
    return resolved;
  }

  private UpdateResult run(UpdateOptions options) {
    Instant start = Instant.now();
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("full_refresh_all", options.fullRefreshAll());
    request.put("full_refresh", options.fullRefresh());
    request.put("refresh", options.refresh());
    events.event(EventLevel.INFO, EventType.CREATE_UPDATE, "update " + events.updateId() + " of pipeline '"
        + spec.name() + "' started").details(request).record();
    spark.conf().set(CommitTag.UPDATE_CONF, events.updateId());
    try {
      updateProgress("INITIALIZING");
      ResolvedGraph graph = validate(spark, spec);
      recordDefinitions(graph);
      RefreshSelection selection = RefreshSelection.of(spark, graph, options,
          LostState.droppedTables(spark, graph, checkpoints));
      LostState.refuseLostCheckpoints(spark, graph, checkpoints, selection);
      List<String> warnings = new ArrayList<>(graph.warnings());
      warnings.addAll(selection.warnings());
      warnings.forEach(w -> events.event(EventLevel.WARN, EventType.UPDATE_PROGRESS, w).record());
      FlowRetries.validate(spark, graph);
      updateProgress("SETTING_UP_TABLES");
      new TableManager(spark, checkpoints, spec.storage()).prepare(graph, selection);
      useDefaultNamespace(spark, graph.graph(), true);
      updateProgress("RUNNING");
      List<FlowOutcome> outcomes = runFlows(graph, selection, start);
      if (outcomes.stream().noneMatch(o -> o.state() == FlowState.FAILED)) {
        maintainDueTables(graph);
      }
      UpdateResult result = new UpdateResult(events.updateId(), outcomes, warnings,
          Duration.between(start, Instant.now()));
      updateProgress(result.succeeded() ? "COMPLETED" : "FAILED");
      return result;
    } catch (Exception e) {
      events.event(EventLevel.ERROR, EventType.UPDATE_PROGRESS, "update failed")
          .details(Map.of("state", "FAILED"))
          .error(FlowOutcome.describe(e))
          .record();
      throw SparkErrors.unchecked(e);
    } finally {
      spark.conf().unset(CommitTag.UPDATE_CONF);
      spark.conf().unset(CommitTag.FLOW_CONF);
      events.flush();
    }
  }

  /** Maintenance is the update's chore, not its purpose: a failure of it is a warning. */
  private void maintainDueTables(ResolvedGraph graph) {
    try {
      new TableMaintenance(spark, spec.storage(), events).maintainDue(graph);
    } catch (Exception e) {
      events.event(EventLevel.WARN, EventType.MAINTENANCE, "maintenance failed: " + SparkErrors.firstLine(e)).record();
    }
  }

  private List<FlowOutcome> runFlows(ResolvedGraph graph, RefreshSelection selection, Instant updateStart) {
    List<FlowOutcome> outcomes = new ArrayList<>();
    Set<DatasetName> broken = new HashSet<>();
    DatasetReader reader = (dataset, streaming) -> readTable(graph.graph(), dataset, streaming);
    for (ResolvedFlow flow : graph.flows()) {
      DatasetDefinition target = graph.dataset(flow.target());
      flowState(flow, target, selection.runs(target) ? FlowState.QUEUED : FlowState.EXCLUDED, null);
    }
    for (ResolvedFlow flow : graph.flows()) {
      DatasetDefinition target = graph.dataset(flow.target());
      if (!selection.runs(target)) {
        outcomes.add(outcome(flow, target, FlowState.EXCLUDED, null, Instant.now(), null));
        continue;
      }
      Optional<DatasetName> failedInput = flow.inputs().stream().filter(broken::contains).findFirst();
      if (failedInput.isPresent()) {
        broken.add(target.name());
        flowState(flow, target, FlowState.SKIPPED, "upstream dataset '" + failedInput.get() + "' failed");
        outcomes.add(outcome(flow, target, FlowState.SKIPPED, null, Instant.now(), null));
        continue;
      }
      outcomes.add(runFlow(new FlowRun(spark, graph, flow, events, reader, updateStart), broken));
      events.flushIfOlderThan(EVENT_FLUSH_INTERVAL);
    }
    return outcomes;
  }

  private FlowOutcome runFlow(FlowRun run, Set<DatasetName> broken) {
    Instant start = Instant.now();
    ResolvedFlow flow = run.flow();
    DatasetDefinition target = run.target();
    try {
      flowState(flow, target, FlowState.STARTING, null);
      flowState(flow, target, FlowState.RUNNING, null);
      // The flow's commits name it and the update (sluice history); streams copy the setting as they start.
      spark.conf().set(CommitTag.FLOW_CONF, flow.name().name());
      executeWithRetries(run);
      flowState(flow, target, FlowState.COMPLETED, null);
      return outcome(flow, target, FlowState.COMPLETED, run.metrics(), start, null);
    } catch (Exception e) {
      broken.add(target.name());
      events.event(EventLevel.ERROR, EventType.FLOW_PROGRESS, "flow '" + flow.name() + "' failed")
          .flow(flow.name().name())
          .dataset(target.name().name())
          .details(Map.of("state", FlowState.FAILED.name()))
          .error(FlowOutcome.describe(e))
          .record();
      return outcome(flow, target, FlowState.FAILED, run.metrics(), start, e);
    }
  }

  /** Runs the flow, again after a failure that may pass, as often as its retries allow; a retry resumes from the checkpoint. */
  private void executeWithRetries(FlowRun run) {
    FlowRetries retries = FlowRetries.of(spark, run.target());
    for (int retry = 1; ; retry++) {
      try {
        run.flow().definition().mode().accept(new FlowPlanner(checkpoints, run.target().type())).execute(run);
        return;
      } catch (RuntimeException e) {
        if (retry > retries.attempts() || !FlowRetries.retryable(e)) {
          throw e;
        }
        Duration wait = FlowRetries.backoff(retry);
        run.warn("failed (" + FlowOutcome.describe(e) + "); retry " + retry + " of " + retries.attempts() + " in "
            + wait.toSeconds() + " s", Map.of("retry", retry, "max_retries", retries.attempts()));
        try {
          Thread.sleep(wait.toMillis());
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private Dataset<Row> readTable(DataflowGraph graph, DatasetDefinition dataset, boolean streaming) {
    String name = dataset.type() == DatasetType.TEMPORARY_VIEW ? dataset.name().name() : dataset.name().quoted();
    if (!streaming || !dataset.type().isTable()) {
      return spark.table(name);
    }
    boolean changes = ChangeFeed.readsChanges(graph, dataset.name());
    return spark.readStream().option(ChangeFeed.READ_OPTION, String.valueOf(changes)).table(name);
  }

  private FlowOutcome outcome(
      ResolvedFlow flow, DatasetDefinition target, FlowState state, FlowMetrics metrics, Instant start, Throwable error) {
    FlowMetrics figures = metrics == null ? new FlowMetrics() : metrics;
    return new FlowOutcome(flow.name().name(), target.name().name(), target.type().toString(), state,
        figures.batches(), figures.rowsWritten(), figures.rowsDropped(), figures.rowsRescued(), figures.kindMetrics(), figures.expectationFailures(),
        Duration.between(start, Instant.now()),
        Optional.ofNullable(error));
  }

  private void flowState(ResolvedFlow flow, DatasetDefinition target, FlowState state, String reason) {
    String message = "flow '" + flow.name() + "' is " + state + (reason == null ? "" : ": " + reason);
    events.event(state == FlowState.SKIPPED ? EventLevel.WARN : EventLevel.INFO, EventType.FLOW_PROGRESS, message)
        .flow(flow.name().name())
        .dataset(target.name().name())
        .details(Map.of("state", state.name()))
        .record();
  }

  private void updateProgress(String state) {
    events.event(EventLevel.INFO, EventType.UPDATE_PROGRESS, "update is " + state)
        .details(Map.of("state", state))
        .record();
  }

  private void recordDefinitions(ResolvedGraph graph) {
    for (DatasetDefinition dataset : graph.graph().datasets().values()) {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("type", dataset.type().name());
      details.put("name", dataset.name().key());
      details.put("schema", graph.schemas().containsKey(dataset.name()) ? graph.schemas().get(dataset.name()).toDDL() : null);
      details.put("expectations", dataset.expectations().stream().map(e -> e.name()).toList());
      details.put("origin", dataset.origin().toString());
      events.event(EventLevel.INFO, EventType.DATASET_DEFINITION, "defined " + dataset.type() + " '" + dataset.name() + "'")
          .dataset(dataset.name().name()).details(details).record();
    }
    for (ResolvedFlow flow : graph.flows()) {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("target", flow.target().key());
      details.put("streaming", flow.streaming());
      details.put("inputs", flow.inputs().stream().map(DatasetName::key).sorted().toList());
      details.put("origin", flow.definition().origin().toString());
      events.event(EventLevel.INFO, EventType.FLOW_DEFINITION, "defined flow '" + flow.name() + "'")
          .flow(flow.name().name()).dataset(flow.target().name()).details(details).record();
    }
  }

  /** Makes the pipeline's schema current, so unqualified names in queries resolve there. */
  private static void useDefaultNamespace(SparkSession spark, DataflowGraph graph, boolean mustExist) {
    spark.catalog().setCurrentCatalog(graph.defaultCatalog());
    if (mustExist || spark.catalog().databaseExists(graph.defaultDatabase())) {
      if (mustExist) {
        spark.sql("CREATE NAMESPACE IF NOT EXISTS " + Identifiers.quote(graph.defaultDatabase()));
      }
      spark.catalog().setCurrentDatabase(graph.defaultDatabase());
    }
  }
}
