package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.lit;

import io.sluice.delta.KeyedCommit;
import io.sluice.execution.BatchSink;
import io.sluice.execution.CommitTag;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowRun;
import io.sluice.execution.JobPhase;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import scala.Tuple2;

/**
 * The one Delta commit of a refresh: the view's new rows, checked by its expectations, committed
 * with the refresh's {@link RefreshState} in the commit's user metadata.
 */
final class RefreshCommit {
  private final FlowRun run;
  private final RefreshPlan plan;
  private final Tuple2<DeltaLog, Snapshot> view;
  private final CommitTag tag;
  private final String metadata;
  private Runnable before = () -> {};

  /** The commit of {@code plan} to {@code view}, as of the version the plan read. */
  RefreshCommit(FlowRun run, RefreshPlan plan, Tuple2<DeltaLog, Snapshot> view, String appId) {
    this.run = run;
    this.plan = plan;
    this.view = view;
    this.tag = new CommitTag(appId, plan.next().refresh());
    this.metadata = tag.json(run.spark(), RefreshState.FIELD, plan.next().json());
  }

  /** The tag of the refresh's commits: its flow's app id and the refresh's number. */
  CommitTag tag() {
    return tag;
  }

  /** The bytes of the view's files, as of the version the plan read. */
  long viewBytes() {
    return DeltaInput.bytes(view._2());
  }

  /** Runs {@code write} after the view's new rows pass its expectations, just before their commit: the view's state. */
  void beforeCommit(Runnable write) {
    this.before = write;
  }

  /** Appends {@code rows} to the view's. */
  void append(Dataset<Row> rows) {
    write(rows, checked -> DeltaWrites.append(checked, run.target().name().quoted()));
  }

  /** Replaces every row of the view by {@code rows}. */
  void overwrite(Dataset<Row> rows) {
    write(rows, checked -> DeltaWrites.overwrite(checked, run.target().name().quoted()));
  }

  /** Replaces the view's rows whose {@code keyColumns} equal a row of {@code keys} (NULL matching NULL) by {@code rows}. */
  void replace(Dataset<Row> rows, Dataset<Row> keys, List<String> keyColumns) {
    replace(rows, keys, keyColumns, lit(true));
  }

  /**
   * As {@link #replace(Dataset, Dataset, List)}, among the view's rows (aliased {@code t}) for
   * which {@code scope} holds: its literal conditions let Delta skip the view's other files.
   */
  void replace(Dataset<Row> rows, Dataset<Row> keys, List<String> keyColumns, Column scope) {
    SparkSession spark = run.spark();
    write(rows, checked -> KeyedCommit.to(spark, view._1(), view._2(), "REFRESH MATERIALIZED VIEW")
        .removing(keys, keyColumns, scope)
        .appending(checked)
        .parameter("technique", plan.technique().name())
        .commit());
  }

  private void write(Dataset<Row> rows, Consumer<Dataset<Row>> commit) {
    run.processBatch(rows, plan.next().refresh(), (checked, id, count) -> {
      // Recorded even when no row changed: the commit carries the state the next refresh starts from.
      JobPhase.labelled(run.spark(), "state", () -> {
        before.run();
        return null;
      });
      JobPhase.labelled(run.spark(), "write", () -> DeltaWrites.recordingEmptyCommits(run.spark(),
          () -> DeltaWrites.withUserMetadata(run.spark(), metadata, () -> {
            commit.accept(checked);
            return null;
          })));
      return new BatchSink.Written(count, Map.of("technique", plan.technique().name()));
    });
  }
}
