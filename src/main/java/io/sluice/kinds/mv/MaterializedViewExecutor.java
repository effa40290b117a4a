package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.lit;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import io.sluice.delta.KeyedCommit;
import io.sluice.delta.WriterSupport;
import io.sluice.execution.BatchSink;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.CommitTag;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowExecutor;
import io.sluice.execution.FlowRun;
import io.sluice.execution.SourceFingerprint;
import io.sluice.expectations.ViolationAction;
import io.sluice.graph.RefreshPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.functions;
import scala.Tuple2;

/**
 * Refreshes a materialized view in one atomic Delta commit, by the technique its
 * {@link RefreshPlanner} chose: nothing when no input changed, the query over the appended rows
 * alone, the touched groups merged, or the query run afresh. The commit carries the refresh's
 * {@link RefreshState}; readers see the old rows or the new ones, never a mix (SEMANTICS §7.2, §7.2.1).
 */
public final class MaterializedViewExecutor implements FlowExecutor {
  private static final String ANSI = "spark.sql.ansi.enabled";
  private static final String TIME_ZONE = "spark.sql.session.timeZone";
  private static final String DIFFERENCE = "__sluice_difference";
  private static final String HELD = "__sluice_held";
  private static final String COPY = "__sluice_copy";
  private final Checkpoints checkpoints;

  public MaterializedViewExecutor(Checkpoints checkpoints) {
    this.checkpoints = checkpoints;
  }

  @Override
  public void execute(FlowRun run) {
    run.withFlowConf(() -> {
      refresh(run);
      return null;
    });
  }

  private void refresh(FlowRun run) {
    SparkSession spark = run.spark();
    Dataset<Row> query = run.buildQuery();
    LogicalPlan analyzed = query.queryExecution().analyzed();
    DeltaTarget target = DeltaTarget.table(run.target().name());
    Tuple2<DeltaLog, Snapshot> view = target.latest(spark);
    RefreshPlan plan = plan(run, analyzed, view);
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
    String metadata = new CommitTag(checkpoints.appId(run.target().name(), run.flow().name()), plan.next().refresh())
        .json(spark, RefreshState.FIELD, plan.next().json());
    String table = run.target().name().quoted();
    long batch = plan.next().refresh();
    switch (plan.technique()) {
      case APPEND_ONLY -> run.processBatch(SignedRows.gained(spark, analyzed, plan.changes()), batch, (rows, id, count) -> {
        DeltaWrites.withUserMetadata(spark, metadata, () -> {
          DeltaWrites.append(rows, table);
          return null;
        });
        return written(plan, count);
      });
      case GROUP_AGGREGATE -> mergeGroups(run, analyzed, plan, view, metadata);
      case GENERIC_AGGREGATE -> recomputeGroups(run, analyzed, plan, view, metadata);
      case ROW_BASED -> replaceRows(run, analyzed, plan, view, metadata);
      default -> run.processBatch(query, batch, (rows, id, count) -> {
        DeltaWrites.withUserMetadata(spark, metadata, () -> {
          DeltaWrites.overwrite(rows, table);
          return null;
        });
        return written(plan, count);
      });
    }
  }

  private static BatchSink.Written written(RefreshPlan plan, long rows) {
    return new BatchSink.Written(rows, Map.of("technique", plan.technique().name()));
  }

  private RefreshPlan plan(FlowRun run, LogicalPlan analyzed, Tuple2<DeltaLog, Snapshot> view) {
    Optional<IncrementalizationIssue> dropsRows = run.target().expectations().stream()
        .filter(e -> e.action() == ViolationAction.DROP).findFirst()
        .map(e -> new IncrementalizationIssue(IncrementalizationIssue.EXPECTATION_DROPS_ROWS, "expectation '" + e.name()
            + "' drops rows of the view: a dropped group cannot be merged"));
    Optional<IncrementalizationIssue> notKeyed = WriterSupport.whyNot(view._2()).map(why -> new IncrementalizationIssue(
        IncrementalizationIssue.VIEW_NOT_KEYED_WRITABLE, "the view's table cannot have rows replaced in place: " + why));
    List<DeltaInput> inputs = DeltaInput.of(analyzed);
    RefreshPlanner.View planned = new RefreshPlanner.View(QueryShape.of(analyzed), definition(run, analyzed, inputs),
        run.target().refreshPolicy(), dropsRows, notKeyed, DeltaInput.bytes(view._2()));
    return RefreshPlanner.plan(planned, inputs, RefreshState.read(view._1(), view._2().version()));
  }

  /**
   * The fingerprint of everything besides the inputs' rows that decides the view's rows: the
   * query's plan, its settings and the session's result-changing ones, the inputs' columns, the
   * view's columns and expectations.
   */
  private static String definition(FlowRun run, LogicalPlan analyzed, List<DeltaInput> inputs) {
    List<String> parts = new ArrayList<>();
    parts.add(SourceFingerprint.shape(analyzed));
    parts.add(new TreeMap<>(run.flow().definition().sqlConf()).toString());
    parts.add(ANSI + "=" + run.spark().conf().get(ANSI) + " " + TIME_ZONE + "=" + run.spark().conf().get(TIME_ZONE));
    inputs.forEach(input -> parts.add(input.key() + " " + input.snapshot().metadata().schema().toDDL()));
    parts.add(run.targetSchema().toDDL());
    run.target().expectations().forEach(e -> parts.add(e.name() + " " + e.condition() + " " + e.action()));
    return SourceFingerprint.sha256(String.join("\n", parts));
  }

  /**
   * The groups the appended rows touch, each merged with the view's row for it, replace those rows
   * in one keyed commit: the view's other rows are not read beyond their keys.
   */
  private static void mergeGroups(FlowRun run, LogicalPlan analyzed, RefreshPlan plan, Tuple2<DeltaLog, Snapshot> view,
      String metadata) {
    SparkSession spark = run.spark();
    GroupColumns groups = QueryShape.of(analyzed).groups();
    Dataset<Row> added = SignedRows.gained(spark, analyzed, plan.changes()).as("a");
    Dataset<Row> held = DeltaTarget.table(run.target().name()).readPinned(spark).as("v");
    Dataset<Row> merged = added.join(held, groups.sameGroup(), "left").select(groups.merged().toArray(Column[]::new)).persist();
    try {
      Column[] keys = groups.keys().stream().map(k -> functions.col(Identifiers.quote(k))).toArray(Column[]::new);
      replaceGroups(run, plan, view, metadata, merged, merged.select(keys), groups.keys());
    } finally {
      merged.unpersist();
    }
  }

  /**
   * The groups the one changed input's change touches are recomputed from the input's rows of
   * those groups, and replace the view's rows of those groups; a group left with no row goes.
   */
  private static void recomputeGroups(FlowRun run, LogicalPlan analyzed, RefreshPlan plan, Tuple2<DeltaLog, Snapshot> view,
      String metadata) {
    GroupKeys keys = QueryShape.of(analyzed).keys();
    InputChange change = plan.changes().stream().filter(c -> c.kind() != InputChange.Kind.UNCHANGED).findFirst().orElseThrow();
    try (TouchedGroups touched = TouchedGroups.of(run.spark(), keys, change)) {
      replaceGroups(run, plan, view, metadata, touched.recomputed(run.spark(), analyzed, change.input().key()),
          touched.viewKeys(), keys.viewColumns());
    }
  }

  /**
   * The rows the change adds and takes away, counted by value, give each touched value's new
   * number of rows (what the view holds plus the difference); the view's rows of those values are
   * replaced by as many copies in one keyed commit. Rows are a multiset: two equal rows are two.
   */
  private static void replaceRows(FlowRun run, LogicalPlan analyzed, RefreshPlan plan, Tuple2<DeltaLog, Snapshot> view,
      String metadata) {
    SparkSession spark = run.spark();
    List<String> columns = List.of(analyzed.schema().fieldNames());
    Column[] all = SignedRows.columns(columns);
    Dataset<Row> differences = SignedRows.of(spark, analyzed, plan.changes()).groupBy(all)
        .agg(functions.sum(SignedRows.SIGN).as(DIFFERENCE)).where(functions.col(DIFFERENCE).notEqual(0)).persist();
    try {
      Dataset<Row> held = DeltaTarget.table(run.target().name()).readPinned(spark).as("v")
          .join(differences.as("d"), GroupColumns.sameValues("v", "d", columns), "left_semi");
      Dataset<Row> counts = held.groupBy(all).agg(functions.count(functions.lit(1)).as(HELD));
      List<Column> copies = new ArrayList<>();
      for (String column : columns) {
        copies.add(functions.col("d." + Identifiers.quote(column)).as(column));
      }
      Column number = functions.coalesce(functions.col("h." + HELD), functions.lit(0L)).plus(functions.col("d." + DIFFERENCE));
      copies.add(functions.explode(functions.sequence(functions.lit(1L), number)).as(COPY));
      Dataset<Row> rows = differences.as("d").join(counts.as("h"), GroupColumns.sameValues("d", "h", columns), "left")
          .where(number.gt(0)).select(copies.toArray(Column[]::new)).drop(COPY);
      replaceGroups(run, plan, view, metadata, rows, differences.select(all), columns);
    } finally {
      differences.unpersist();
    }
  }

  /** Replaces the view's rows of the groups {@code keys} names by {@code rows}, checked, in one keyed commit. */
  private static void replaceGroups(FlowRun run, RefreshPlan plan, Tuple2<DeltaLog, Snapshot> view, String metadata,
      Dataset<Row> rows, Dataset<Row> keys, List<String> keyColumns) {
    SparkSession spark = run.spark();
    run.processBatch(rows, plan.next().refresh(), (checked, id, count) -> {
      DeltaWrites.withUserMetadata(spark, metadata, () -> KeyedCommit.to(spark, view._1(), view._2(), "REFRESH MATERIALIZED VIEW")
          .removing(keys, keyColumns, lit(true))
          .appending(checked)
          .parameter("technique", plan.technique().name())
          .commit());
      return written(plan, count);
    });
  }
}
