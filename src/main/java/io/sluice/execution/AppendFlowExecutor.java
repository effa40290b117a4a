package io.sluice.execution;

import io.sluice.SluiceException;
import java.nio.file.Path;
import java.util.concurrent.TimeoutException;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;

/**
 * A streaming flow that appends into a streaming table. It processes what is available
 * when it starts (Trigger.AvailableNow) and stops. Exactly-once: each batch is one Delta
 * commit tagged with the flow's app id and the batch id ({@code txnAppId}/{@code txnVersion}),
 * so a batch that Spark replays after a crash is skipped by Delta if it had committed.
 */
final class AppendFlowExecutor implements FlowExecutor {
  private final Checkpoints checkpoints;

  AppendFlowExecutor(Checkpoints checkpoints) {
    this.checkpoints = checkpoints;
  }

  @Override
  public void execute(FlowRun run) {
    Path checkpoint = checkpoints.location(run.target().name(), run.flow().name());
    String appId = checkpoints.appId(run.target().name(), run.flow().name());
    String table = run.target().name().quoted();
    BatchSink append = (rows, batchId) -> DeltaWrites.idempotentAppend(rows, table, appId, batchId);
    Dataset<Row> stream = run.buildQuery();
    StreamingQuery query = run.withFlowConf(() -> start(stream, checkpoint,
        (batch, batchId) -> run.processBatch(batch, batchId, append)));
    await(query);
  }

  static StreamingQuery start(Dataset<Row> stream, Path checkpoint, VoidFunction2<Dataset<Row>, Long> perBatch) {
    try {
      return stream.writeStream()
          .option("checkpointLocation", checkpoint.toString())
          .trigger(Trigger.AvailableNow())
          .foreachBatch(perBatch)
          .start();
    } catch (TimeoutException e) {
      throw new IllegalStateException("the streaming query did not start", e);
    }
  }

  /** Waits for the query; a failure inside a batch comes back as the error that caused it. */
  static void await(StreamingQuery query) {
    try {
      query.awaitTermination();
    } catch (StreamingQueryException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof SluiceException sluice) {
          throw sluice;
        }
      }
      throw new FlowFailedException(rootMessage(e), e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return io.sluice.graph.SparkErrors.firstLine(root);
  }
}
