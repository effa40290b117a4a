package io.sluice.execution;

import io.sluice.expectations.ExpectationChecker;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * One batch of a flow on its way to the flow's sink: the rows its query gave, unchecked, and
 * the two ways to check them. The usual one caches the batch and checks it in a pass of its
 * own before the sink sees it ({@link #checkThenWrite}); a sink whose first Spark job over the
 * batch writes nothing (a comparison with its target) checks it in that job instead, reading
 * the batch once ({@link #checkAsRead}).
 */
public final class IncomingBatch {
  private final Dataset<Row> rows;
  private final long id;
  private final ExpectationChecker checker;
  private final boolean changeEvents;
  private final StructType targetSchema;

  IncomingBatch(Dataset<Row> rows, long id, ExpectationChecker checker, boolean changeEvents, StructType targetSchema) {
    this.rows = rows;
    this.id = id;
    this.checker = checker;
    this.changeEvents = changeEvents;
    this.targetSchema = targetSchema;
  }

  public long id() {
    return id;
  }

  /** The batch cached, checked in one Spark job (expectations, the sink's requirements), then written by {@code sink}. */
  public BatchSink.Taken checkThenWrite(BatchSink sink) {
    Dataset<Row> cached = rows.persist();
    SparkSession session = rows.sparkSession();
    try {
      ExpectationChecker.Checked checked = BatchSettings.forCounts(session, () -> checker.check(cached));
      Dataset<Row> shaped = changeEvents ? checked.rows() : TableWriter.align(checked.rows(), targetSchema);
      BatchSink.Written written = BatchSettings.forWrite(session,
          () -> sink.write(shaped, id, checked.quality().outputRows(), checked.sample()));
      return new BatchSink.Taken(checked.quality(), written);
    } finally {
      cached.unpersist();
    }
  }

  /**
   * The batch written by {@code write}, which gets its rows as the sink takes them, counted and
   * checked by the first Spark job that reads them ({@link ExpectationChecker#observe}): it must
   * ask for {@link ExpectationChecker.ObservedBatch#checked} after that job and before it commits.
   */
  public BatchSink.Taken checkAsRead(Function<ExpectationChecker.ObservedBatch, BatchSink.Taken> write) {
    return BatchSettings.forWrite(rows.sparkSession(), () -> write.apply(checker.observe(rows)));
  }
}
