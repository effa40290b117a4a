package io.sluice.kinds.mv;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.SparkErrors;
import io.sluice.delta.WriterSupport;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.FlowExecutor;
import io.sluice.execution.FlowRun;
import io.sluice.execution.JobPhase;
import io.sluice.execution.SourceFingerprint;
import io.sluice.expectations.ViolationAction;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.FlowDefinition;
import io.sluice.graph.RefreshPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.types.StructType;
import scala.Tuple2;

/**
 * Refreshes a materialized view in one atomic Delta commit, by the technique its
 * {@link RefreshPlanner} chose: nothing when no input changed, the rows the query gains appended,
 * the rows it gains and loses replaced, the touched groups merged or recomputed, or the query run
 * afresh. The commit carries the refresh's
 * {@link RefreshState}; readers see the old rows or the new ones, never a mix (SEMANTICS §7.2, §7.2.1).
 */
public final class MaterializedViewExecutor implements FlowExecutor {
  private static final String ANSI = "spark.sql.ansi.enabled";
  private static final String TIME_ZONE = "spark.sql.session.timeZone";
  private final Checkpoints checkpoints;

  public MaterializedViewExecutor(Checkpoints checkpoints) {
    this.checkpoints = checkpoints;
  }

  @Override
  public void execute(FlowRun run) {
    // Each job labelled with its view: the Spark UI and a benchmark tell the views' refreshes apart.
    run.withFlowConf(() -> JobPhase.labelled(run.spark(), "refresh " + run.target().name().name(), () -> {
      refresh(run);
      return null;
    }));
  }

  private void refresh(FlowRun run) {
    SparkSession spark = run.spark();
    Dataset<Row> query = run.buildQuery();
    LogicalPlan analyzed = query.queryExecution().analyzed();
    DeltaTarget target = DeltaTarget.table(run.target().name());
    Tuple2<DeltaLog, Snapshot> view = target.latest(spark);
    QueryShape shape = QueryShape.of(analyzed);
    GroupState.Tables state = GroupState.Tables.in(checkpoints.viewState(run.target().name()));
    RefreshPlan plan = plan(spark, state, run.target(), run.flow().definition(), run.targetSchema(), analyzed, shape, view);
    run.planned("flow '" + run.flow().name() + "': " + plan.summary(), plan.details(), plan.technique() != Technique.NO_OP);
    if (run.target().refreshPolicy() == RefreshPolicy.INCREMENTAL_STRICT && !plan.strictAllows()) {
      throw new SluiceException(ErrorClass.MATERIALIZED_VIEW_NOT_INCREMENTALIZABLE, run.target().origin(),
          "materialized view '" + run.target().name() + "' (REFRESH POLICY INCREMENTAL STRICT) cannot be refreshed"
              + " incrementally: " + plan.firstReason().map(IncrementalizationIssue::reason).orElse("no technique applies")
              + "; nothing was written");
    }
    if (plan.technique() == Technique.NO_OP) {
      run.unchanged("its inputs have no new version since its last refresh: not recomputed", Map.of("recomputed", false));
      return;
    }
    run.starting();
    RefreshCommit commit = new RefreshCommit(run, plan, view, checkpoints.appId(run.target().name(), run.flow().name()));
    // A view whose groups merge keeps their state from every full recompute on, for its next refreshes.
    Runnable recompute = keepsState(run.target(), shape)
        ? () -> MergedGroups.recompute(spark, shape.groups(), state, commit)
        : () -> commit.overwrite(query);
    try {
      switch (plan.technique()) {
        case APPEND_ONLY -> commit.append(plan.change().orElseThrow().gained());
        case ROW_BASED, WINDOW_FUNCTION -> RowCounts.refresh(spark, plan.change().orElseThrow(),
            List.of(analyzed.schema().fieldNames()), target, commit);
        case GROUP_AGGREGATE -> MergedGroups.refresh(spark, shape.groups(), plan, state, target, commit);
        case GENERIC_AGGREGATE -> TouchedGroups.refresh(spark, analyzed, shape.keys(), plan.changes(), commit);
        case PARTITION_OVERWRITE -> plan.partitions().orElseThrow().refresh(spark, commit);
        default -> recompute.run();
      }
    } catch (Exception e) { // Spark's job failures are checked exceptions, thrown undeclared
      // An input's files as the last refresh read them, deleted since (VACUUM): nothing was committed, recompute.
      if (!plan.technique().incremental() || !SparkErrors.fileGone(e)) {
        throw SparkErrors.unchecked(e);
      }
      run.warn("flow '" + run.flow().name() + "': " + plan.technique() + " could not read its inputs as the last refresh"
          + " read them (" + SparkErrors.firstLine(e) + "): recomputed in full", Map.of("technique", plan.technique().name()));
      recompute.run();
    }
  }

  /**
   * Whether the view keeps the state its groups merge from: they can, and its policy and
   * expectations let them. A view partitioned as its input does not: it is refreshed by its
   * changed partitions, which need no state, after any change.
   */
  private static boolean keepsState(DatasetDefinition target, QueryShape shape) {
    return shape.groupAggregate().isEmpty() && target.refreshPolicy() != RefreshPolicy.FULL && dropsRows(target).isEmpty()
        && partitionKeys(target, shape).keys() == null;
  }

  private static Optional<IncrementalizationIssue> dropsRows(DatasetDefinition target) {
    return target.expectations().stream()
        .filter(e -> e.action() == ViolationAction.DROP).findFirst()
        .map(e -> new IncrementalizationIssue(IncrementalizationIssue.EXPECTATION_DROPS_ROWS, "expectation '" + e.name()
            + "' drops rows of the view: a dropped group cannot be merged"));
  }

  /**
   * Why the groups of a view that keeps a group state are not recomputed alone: the state would
   * fall behind them. Merging follows every change a recompute of groups would; a view whose state
   * is missing is recomputed in full, which writes it.
   */
  private static Optional<IncrementalizationIssue> stateKept(boolean keepsState) {
    return keepsState ? Optional.of(new IncrementalizationIssue(IncrementalizationIssue.GROUP_STATE_KEPT, "the view's groups"
        + " merge from the group state it keeps (GROUP_AGGREGATE); recomputing them alone would leave that state behind"))
        : Optional.empty();
  }

  /** How a refresh of {@code target} by {@code analyzed}, its query over its inputs' versions now, goes. */
  static RefreshPlan plan(SparkSession spark, GroupState.Tables state, DatasetDefinition target, FlowDefinition flow,
      StructType targetSchema, LogicalPlan analyzed, QueryShape shape, Tuple2<DeltaLog, Snapshot> view) {
    Optional<IncrementalizationIssue> dropsRows = dropsRows(target);
    Optional<IncrementalizationIssue> notKeyed = WriterSupport.whyNot(view._2()).map(why -> new IncrementalizationIssue(
        IncrementalizationIssue.VIEW_NOT_KEYED_WRITABLE, "the view's table cannot have rows replaced in place: " + why));
    List<DeltaInput> inputs = DeltaInput.of(analyzed);
    GroupKeys.Traced partitioned = partitionKeys(target, shape);
    Optional<IncrementalizationIssue> unpartitioned = Optional.ofNullable(partitioned.whyNot())
        .map(why -> new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, why));
    RefreshState.Previous previous = RefreshState.read(view._1(), view._2().version());
    boolean keepsState = keepsState(target, shape);
    Optional<IncrementalizationIssue> stateless = keepsState
        ? previous.state().flatMap(last -> state.whyNot(spark, last.stateRefresh(), shape.groups().distinctValue().isPresent()))
        : Optional.of(new IncrementalizationIssue(IncrementalizationIssue.VIEW_KEEPS_NO_STATE, "the view keeps no group"
            + " state: its policy, expectations or partitions (as its input's, refreshed by PARTITION_OVERWRITE) leave none"));
    RefreshPlanner.View planned = new RefreshPlanner.View(shape,
        definition(spark, target, flow, targetSchema, analyzed, inputs), target.refreshPolicy(), dropsRows, notKeyed,
        stateless, keepsState ? state.bytes(spark) : 0, keepsState && shape.groups().mergesFromView(), stateKept(keepsState), !target.partitionColumns().isEmpty(), unpartitioned,
        DeltaInput.bytes(view._2()));
    return RefreshPlanner.plan(planned, inputs, previous, System.currentTimeMillis(),
        changes -> ChangePlan.of(spark, shape.joined(), changes),
        // A query whose group keys trace to its input's columns reads that one input.
        changes -> changes.size() == 1 ? ChangedPartitions.of(spark, analyzed, partitioned.keys(), changes.get(0))
            : ChangedPartitions.Listed.not(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, "it reads more than one input"));
  }

  /** The view's partition columns as the GROUP BY keys they must be, traced to the input's columns; or why not. */
  static GroupKeys.Traced partitionKeys(DatasetDefinition target, QueryShape shape) {
    if (target.partitionColumns().isEmpty()) {
      return GroupKeys.Traced.not("the view is not partitioned");
    }
    if (shape.keys() == null) {
      return GroupKeys.Traced.not(shape.genericAggregate().map(IncrementalizationIssue::reason)
          .orElse("its query is not one GROUP BY over one input"));
    }
    return shape.keys().restrictedTo(target.partitionColumns());
  }

  /**
   * The fingerprint of everything besides the inputs' rows that decides the view's rows: the
   * query's plan, its settings and the session's result-changing ones, the inputs' columns, the
   * view's columns and expectations.
   */
  private static String definition(SparkSession spark, DatasetDefinition target, FlowDefinition flow,
      StructType targetSchema, LogicalPlan analyzed, List<DeltaInput> inputs) {
    List<String> parts = new ArrayList<>();
    parts.add(SourceFingerprint.shape(analyzed));
    parts.add(new TreeMap<>(flow.sqlConf()).toString());
    parts.add(ANSI + "=" + spark.conf().get(ANSI) + " " + TIME_ZONE + "=" + spark.conf().get(TIME_ZONE));
    inputs.forEach(input -> parts.add(input.key() + " " + input.snapshot().metadata().schema().toDDL()));
    parts.add(targetSchema.toDDL());
    target.expectations().forEach(e -> parts.add(e.name() + " " + e.condition() + " " + e.action()));
    return SourceFingerprint.sha256(String.join("\n", parts));
  }
}
