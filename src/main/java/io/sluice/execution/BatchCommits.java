package io.sluice.execution;

import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * The Delta commits of one batch ({@link BatchLog}): each is made once, however many times
 * the batch runs.
 */
public final class BatchCommits {
  private enum Kind { FRESH, RESUMED, LEGACY }

  private final CommitTag tag;
  private final Kind kind;
  private final BegunBatch begun;

  private BatchCommits(CommitTag tag, Kind kind, BegunBatch begun) {
    this.tag = tag;
    this.kind = kind;
    this.begun = begun;
  }

  /** A batch run for the first time: nothing of it is committed yet. */
  static BatchCommits fresh(CommitTag tag) {
    return new BatchCommits(tag, Kind.FRESH, null);
  }

  /** A batch run again: what it committed is among the commits after the versions it began at. */
  static BatchCommits resumed(CommitTag tag, BegunBatch begun) {
    return new BatchCommits(tag, Kind.RESUMED, begun);
  }

  /** A batch of a checkpoint from before tags: Delta's record of app versions decides. */
  static BatchCommits legacy(CommitTag tag) {
    return new BatchCommits(tag, Kind.LEGACY, null);
  }

  /** Makes the batch's commit to {@code table} by {@code write}, tagged, unless the batch made it before. */
  public void commit(SparkSession session, DeltaTarget table, Runnable write) {
    commit(session, table, () -> {
      write.run();
      return true;
    }, false);
  }

  /**
   * The same, for a write that returns what it did: {@code ifMadeBefore} when the batch had
   * made the commit already.
   */
  public <T> T commit(SparkSession session, DeltaTarget table, Supplier<T> write, T ifMadeBefore) {
    return JobPhase.labelled(session, "write " + table.key(), () -> switch (kind) {
      case FRESH -> DeltaWrites.tagged(session, tag, write);
      case RESUMED -> begun.madeOn(session, table, tag.appId()) ? ifMadeBefore : DeltaWrites.tagged(session, tag, write);
      case LEGACY -> DeltaWrites.idempotently(session, tag, () -> DeltaWrites.tagged(session, tag, write));
    });
  }
}
