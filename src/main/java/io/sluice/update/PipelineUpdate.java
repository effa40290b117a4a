package io.sluice.update;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventListener;
import io.sluice.eventlog.EventLog;
import io.sluice.eventlog.EventType;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.CommitTag;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.GraphResolver;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.kinds.sink.SinkWrites;
import io.sluice.spec.PipelineSpec;
import io.sluice.storage.StoragePath;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;

/**
 * One update of a pipeline (SEMANTICS §1.4, §1.5, §10.1): load and resolve the whole graph
 * before touching data, set up tables, then run the flows ({@link FlowRounds}): once, for a
 * triggered update; round after round, each flow per its trigger interval, for a continuous one,
 * until it is asked to stop.
 */
public final class PipelineUpdate {
  private final SparkSession spark;
  private final PipelineSpec spec;
  private final EventLog events;
  private final StoragePath storage;
  private final Checkpoints checkpoints;
  private final StopSignal stop;

  /**
   * @param spark the caller's session: the update runs in a copy of it, which takes its settings,
   *     so that what the update sets (its temporary views, its current namespace, its settings)
   *     stays in the update, and pipelines run one after another or side by side in one JVM do
   *     not see each other's temporary views
   */
  private PipelineUpdate(SparkSession spark, PipelineSpec spec, StopSignal stop, List<EventListener> listeners) {
    this.spark = isolated(spark);
    this.stop = stop;
    this.spec = spec;
    this.events = new EventLog(spark, spec.storage(), spec.name(), UUID.randomUUID().toString());
    this.storage = StoragePath.root(spark, spec.storage());
    this.checkpoints = new Checkpoints(storage);
    listeners.forEach(events::addListener);
  }

  /** Runs one update; the caller holds the {@link PipelineLock}. */
  public static UpdateResult run(SparkSession spark, PipelineSpec spec, UpdateOptions options, List<EventListener> listeners) {
    return run(spark, spec, options, new StopSignal(), listeners);
  }

  /**
   * Runs one update that {@code stop} can end early: a continuous one runs until it does. The
   * caller holds the {@link PipelineLock}.
   */
  public static UpdateResult run(
      SparkSession spark, PipelineSpec spec, UpdateOptions options, StopSignal stop, List<EventListener> listeners) {
    return new PipelineUpdate(spark, spec, stop, listeners).run(options, stop);
  }

  /**
   * Loads, resolves and validates the pipeline without writing anything (dry run), in a copy of
   * {@code spark}, as an update runs: the caller's current namespace and temporary views stay as
   * they were.
   */
  public static ResolvedGraph validate(SparkSession spark, PipelineSpec spec) {
    return resolve(isolated(spark), LibraryLoader.load(spec));
  }

  private static SparkSession isolated(SparkSession spark) {
    return ((org.apache.spark.sql.classic.SparkSession) spark).cloneSession();
  }

  private static ResolvedGraph resolve(SparkSession spark, DataflowGraph graph) {
    useDefaultNamespace(spark, graph, false);
    ResolvedGraph resolved = GraphResolver.resolve(spark, graph, FlowKindChecks.ALL);
    SinkWrites.checkReachable(spark, resolved);
    FlowRetries.validate(spark, resolved);
    return resolved;
  }

  private UpdateResult run(UpdateOptions options, StopSignal stop) {
    Instant start = Instant.now();
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("full_refresh_all", options.fullRefreshAll());
    request.put("full_refresh", options.fullRefresh());
    request.put("refresh", options.refresh());
    request.put("continuous", options.continuous());
    events.event(EventLevel.INFO, EventType.CREATE_UPDATE, "update " + events.updateId() + " of pipeline '"
        + spec.name() + "' started" + (options.continuous() ? ", continuous" : "")).details(request).record();
    spark.conf().set(CommitTag.UPDATE_CONF, events.updateId());
    try {
      updateProgress("INITIALIZING");
      DataflowGraph definitions = LibraryLoader.load(spec);
      ResolvedGraph graph = resolve(spark, definitions);
      recordDefinitions(graph);
      RefreshSelection selection = RefreshSelection.of(spark, graph, options,
          LostState.droppedTables(spark, graph, checkpoints));
      LostState.refuseLostCheckpoints(spark, graph, checkpoints, selection);
      List<String> warnings = new ArrayList<>(graph.warnings());
      warnings.addAll(selection.warnings());
      warnings.forEach(w -> events.event(EventLevel.WARN, EventType.UPDATE_PROGRESS, w).record());
      ContinuousSchedule schedule = ContinuousSchedule.of(spark, graph);
      FlowParallelism parallelism = FlowParallelism.of(spark);
      updateProgress("SETTING_UP_TABLES");
      new TableManager(spark, checkpoints, storage).prepare(graph, selection);
      useDefaultNamespace(spark, graph.graph(), true);
      updateProgress("RUNNING");
      FlowRounds rounds = new FlowRounds(spark, graph, selection, events, checkpoints, stop, parallelism);
      if (options.continuous()) {
        runContinuously(rounds, schedule, graph);
      } else if (rounds.run(flow -> true)) {
        maintainDueTables(graph);
      }
      UpdateResult result = new UpdateResult(events.updateId(), rounds.outcomes(), warnings,
          Duration.between(start, Instant.now()), rounds.rounds(), stop.reason());
      events.event(EventLevel.INFO, EventType.UPDATE_PROGRESS, "update is " + result.state()
              + stop.reason().map(why -> ": stopped by " + why + "; the next update goes on where this one stopped").orElse(""))
          .details(Map.of("state", result.state()))
          .record();
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

  /**
   * Rounds of flows, each started when its trigger interval has passed, until the update is
   * asked to stop or a flow fails; tables due for maintenance are maintained between rounds.
   */
  private void runContinuously(FlowRounds rounds, ContinuousSchedule schedule, ResolvedGraph graph) {
    while (!stop.requested()) {
      // Flows due in one round count as started together, so they stay in step round after round.
      Instant roundStart = Instant.now();
      if (!rounds.run(flow -> schedule.claim(flow, roundStart))) {
        return;
      }
      maintainDueTables(graph);
      stop.sleepUntil(schedule.nextDue());
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
