package io.sluice.execution;

import io.sluice.delta.KeyedCommit;
import io.sluice.delta.WriterSupport;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import scala.Tuple2;

/**
 * How a keyed flow's batches reach its target: Sluice's own commit ({@link KeyedCommit}: one scan,
 * deletion vectors, one commit) or, for a table whose features that writer does not write, a
 * MERGE. Decided at each batch from the table's current state; a MERGE is said once per run in
 * the event log, with the reason. {@code SET spark.sluice.keyedCommit.enabled = false} makes every
 * batch a MERGE: a way back should a Delta release break the writer.
 */
public final class KeyedWrites {
  public static final String ENABLED = "spark.sluice.keyedCommit.enabled";
  private final FlowRun run;
  private final DeltaTarget target;
  private final String operation;
  private boolean mergeSaid;

  /** @param operation the name of the writer's commits in the table's history */
  public KeyedWrites(FlowRun run, String operation) {
    this.run = run;
    this.target = DeltaTarget.table(run.target().name());
    this.operation = operation;
  }

  /** A commit of this batch to the target, or empty when it takes a MERGE. */
  public Optional<KeyedCommit> commit(SparkSession session) {
    Tuple2<DeltaLog, Snapshot> latest = target.latest(session);
    Optional<String> whyNot = Boolean.parseBoolean(session.conf().get(ENABLED, "true"))
        ? WriterSupport.whyNot(latest._2())
        : Optional.of(ENABLED + " is false");
    if (whyNot.isPresent()) {
      if (!mergeSaid) {
        mergeSaid = true;
        run.info("writes its batches to " + run.target().name() + " with MERGE: " + whyNot.get(),
            Map.of("keyed_write", "merge", "reason", whyNot.get()));
      }
      return Optional.empty();
    }
    return Optional.of(KeyedCommit.to(session, latest._1(), latest._2(), operation));
  }
}
