package io.sluice.update;

import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventLog;
import io.sluice.eventlog.EventType;
import io.sluice.eventlog.FlowState;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.CommitTag;
import io.sluice.execution.FlowMetrics;
import io.sluice.execution.FlowRun;
import io.sluice.execution.FlowStoppedException;
import io.sluice.execution.UpdateContext;
import io.sluice.graph.ChangeFeed;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs an update's flows in rounds (SEMANTICS §1.5, §10): a round starts, in dependency
 * order, each flow of the refresh selection that is due. A failed flow fails the update; flows
 * that read what it writes are skipped, the others run. A triggered update is one round of every
 * flow; a continuous one a round whenever a flow's trigger interval has passed. Once the update
 * is asked to stop, no flow starts and the running one ends after its batch in flight.
 */
final class FlowRounds {
  private static final Duration EVENT_FLUSH_INTERVAL = Duration.ofSeconds(30);
  private final SparkSession spark;
  private final ResolvedGraph graph;
  private final RefreshSelection selection;
  private final EventLog events;
  private final Checkpoints checkpoints;
  private final StopSignal stop;
  private final FlowDispatcher dispatcher;
  private final Map<DatasetName, Tally> tallies = new LinkedHashMap<>();
  private int rounds;

  FlowRounds(SparkSession spark, ResolvedGraph graph, RefreshSelection selection, EventLog events, Checkpoints checkpoints,
      StopSignal stop, FlowParallelism parallelism) {
    this.spark = spark;
    this.graph = graph;
    this.selection = selection;
    this.events = events;
    this.checkpoints = checkpoints;
    this.stop = stop;
    this.dispatcher = new FlowDispatcher(parallelism.limit());
    graph.flows().forEach(flow -> tallies.put(flow.name(), new Tally()));
  }

  /** What one flow did over the update's rounds. */
  private static final class Tally {
    final FlowMetrics metrics = new FlowMetrics();
    FlowState state = FlowState.QUEUED;
    Duration busy = Duration.ZERO;
    Throwable failure;
  }

  /**
   * Runs one round: the flows that {@code due} lets start (it is asked just before each would
   * start), in dependency order. The first round says each flow's states; later ones say what
   * they wrote, in one event, when they wrote anything. Returns whether every flow that ran succeeded.
   */
  boolean run(Predicate<ResolvedFlow> due) {
    rounds++;
    Instant roundStart = Instant.now();
    Map<DatasetName, long[]> before = new LinkedHashMap<>();
    tallies.forEach((flow, tally) -> before.put(flow, new long[] {tally.metrics.batches(), tally.metrics.rowsWritten()}));
    if (rounds == 1) {
      for (ResolvedFlow flow : graph.flows()) {
        flowState(flow, selection.runs(graph.dataset(flow.target())) ? FlowState.QUEUED : FlowState.EXCLUDED, null);
      }
    }
    List<ResolvedFlow> dueFlows = new ArrayList<>();
    for (ResolvedFlow flow : graph.flows()) {
      if (!selection.runs(graph.dataset(flow.target()))) {
        tallies.get(flow.name()).state = FlowState.EXCLUDED;
      } else if (due.test(flow)) {
        dueFlows.add(flow);
      }
    }
    Set<DatasetName> broken = ConcurrentHashMap.newKeySet();
    dispatcher.run(dueFlows, flow -> graph.dataset(flow.target()).type().isView(), (flow, ownThread) -> runDue(flow, ownThread, roundStart, broken));
    if (rounds > 1) {
      recordWrites(before, roundStart);
    }
    return dueFlows.stream().noneMatch(flow -> tallies.get(flow.name()).state == FlowState.FAILED);
  }

  /**
   * Runs a due flow, or says why not: the update is stopping, or what it reads failed. A flow on
   * a thread of its own runs in a copy of the update's session, since flows set session settings
   * (their SQL settings, the commit tag's flow name).
   */
  private void runDue(ResolvedFlow flow, boolean ownThread, Instant roundStart, Set<DatasetName> broken) {
    Tally tally = tallies.get(flow.name());
    if (stop.requested()) {
      if (tally.state == FlowState.QUEUED) {
        tally.state = FlowState.STOPPED;
      }
      return;
    }
    Optional<DatasetName> failedInput = flow.inputs().stream().filter(broken::contains).findFirst();
    if (failedInput.isPresent()) {
      broken.add(flow.target());
      tally.state = FlowState.SKIPPED;
      flowState(flow, FlowState.SKIPPED, "upstream dataset '" + failedInput.get() + "' failed");
      return;
    }
    SparkSession session = ownThread ? ((org.apache.spark.sql.classic.SparkSession) spark).cloneSession() : spark;
    // A flow thread serves update after update: what Delta reads from the active session is this flow's.
    if (ownThread) {
      SparkSession.setActiveSession(session);
    }
    try {
      UpdateContext context = new UpdateContext(session, events,
          (dataset, streaming) -> readTable(session, graph.graph(), dataset, streaming), roundStart, rounds == 1, stop::requested);
      if (runFlow(new FlowRun(context, graph, flow, tally.metrics), tally, rounds == 1) == FlowState.FAILED) {
        broken.add(flow.target());
      }
    } finally {
      if (ownThread) {
        SparkSession.clearActiveSession();
      }
    }
    events.flushIfOlderThan(EVENT_FLUSH_INTERVAL);
  }

  int rounds() {
    return rounds;
  }

  /** Each flow's outcome over the rounds so far. */
  List<FlowOutcome> outcomes() {
    List<FlowOutcome> outcomes = new ArrayList<>();
    for (ResolvedFlow flow : graph.flows()) {
      Tally tally = tallies.get(flow.name());
      DatasetDefinition target = graph.dataset(flow.target());
      FlowMetrics figures = tally.metrics;
      outcomes.add(new FlowOutcome(flow.name().name(), target.name().name(), target.type().toString(), tally.state,
          figures.batches(), figures.rowsWritten(), figures.rowsDropped(), figures.rowsRescued(), figures.kindMetrics(),
          figures.expectationFailures(), tally.busy, Optional.ofNullable(tally.failure)));
    }
    return outcomes;
  }

  private FlowState runFlow(FlowRun run, Tally tally, boolean sayStates) {
    Instant start = Instant.now();
    ResolvedFlow flow = run.flow();
    try {
      if (sayStates) {
        flowState(flow, FlowState.STARTING, null);
        flowState(flow, FlowState.RUNNING, null);
      }
      // The flow's commits name it and the update (sluice history); streams copy the setting as they start.
      run.spark().conf().set(CommitTag.FLOW_CONF, flow.name().name());
      executeWithRetries(run);
      tally.state = FlowState.COMPLETED;
      if (sayStates) {
        flowState(flow, FlowState.COMPLETED, null);
      }
    } catch (FlowStoppedException e) {
      tally.state = FlowState.STOPPED;
      flowState(flow, FlowState.STOPPED, "the update was asked to stop; its next batch runs in the next update");
    } catch (Exception e) {
      tally.state = FlowState.FAILED;
      tally.failure = e;
      events.event(EventLevel.ERROR, EventType.FLOW_PROGRESS, "flow '" + flow.name() + "' failed")
          .flow(flow.name().name())
          .dataset(run.target().name().name())
          .details(Map.of("state", FlowState.FAILED.name()))
          .error(FlowOutcome.describe(e))
          .record();
    } finally {
      tally.busy = tally.busy.plus(Duration.between(start, Instant.now()));
    }
    return tally.state;
  }

  /** Runs the flow, again after a failure that may pass, as often as its retries allow; a retry resumes from the checkpoint. */
  private void executeWithRetries(FlowRun run) {
    FlowRetries retries = FlowRetries.of(spark, run.target());
    for (int retry = 1; ; retry++) {
      try {
        run.flow().definition().mode().accept(new FlowPlanner(checkpoints, run.target().type())).execute(run);
        return;
      } catch (FlowStoppedException e) {
        throw e;
      } catch (RuntimeException e) {
        if (retry > retries.attempts() || !FlowRetries.retryable(e) || stop.requested()) {
          throw e;
        }
        Duration wait = FlowRetries.backoff(retry);
        run.warn("failed (" + FlowOutcome.describe(e) + "); retry " + retry + " of " + retries.attempts() + " in "
            + wait.toSeconds() + " s", Map.of("retry", retry, "max_retries", retries.attempts()));
        stop.sleepUntil(Instant.now().plus(wait));
      }
    }
  }

  /** A later round's one event: what each flow that ran a batch in it wrote. */
  private void recordWrites(Map<DatasetName, long[]> before, Instant roundStart) {
    List<String> parts = new ArrayList<>();
    Map<String, Object> written = new LinkedHashMap<>();
    tallies.forEach((flow, tally) -> {
      long batches = tally.metrics.batches() - before.get(flow)[0];
      long rows = tally.metrics.rowsWritten() - before.get(flow)[1];
      if (batches > 0) {
        parts.add(flow.name() + " " + rows + " rows");
        written.put(flow.name(), Map.of("batches", batches, "rows_written", rows));
      }
    });
    if (parts.isEmpty()) {
      return;
    }
    double seconds = Duration.between(roundStart, Instant.now()).toMillis() / 1000.0;
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("state", "RUNNING");
    details.put("round", rounds);
    details.put("flows", written);
    events.event(EventLevel.INFO, EventType.UPDATE_PROGRESS, String.format(Locale.ROOT, "round %d wrote %s (%.1f s)", rounds,
        String.join(", ", parts), seconds)).details(details).record();
  }

  private static Dataset<Row> readTable(SparkSession spark, DataflowGraph graph, DatasetDefinition dataset, boolean streaming) {
    String name = dataset.type() == DatasetType.TEMPORARY_VIEW ? dataset.name().name() : dataset.name().quoted();
    if (!streaming || !dataset.type().isTable()) {
      return spark.table(name);
    }
    boolean changes = ChangeFeed.readsChanges(graph, dataset.name());
    return spark.readStream().option(ChangeFeed.READ_OPTION, String.valueOf(changes)).table(name);
  }

  private void flowState(ResolvedFlow flow, FlowState state, String reason) {
    String message = "flow '" + flow.name() + "' is " + state + (reason == null ? "" : ": " + reason);
    events.event(state == FlowState.SKIPPED || state == FlowState.STOPPED ? EventLevel.WARN : EventLevel.INFO,
            EventType.FLOW_PROGRESS, message)
        .flow(flow.name().name())
        .dataset(flow.target().name())
        .details(Map.of("state", state.name()))
        .record();
  }
}
