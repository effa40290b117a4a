package io.sluice.execution;

import io.sluice.SluiceException;
import io.sluice.common.SparkErrors;
import io.sluice.storage.StoragePath;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;

/**
 * A streaming flow: it processes what is available when it starts (Trigger.AvailableNow)
 * and stops, handing each micro-batch to its kind's {@link BatchSink}; a flow whose Delta sources
 * have no new version, and whose folders no changed file, since it last read them all does not
 * start ({@link StreamedSources}); a target
 * that its batches left with many small files is compacted after them ({@link SmallFiles}). Exactly-once: each
 * batch's commits carry the flow's app id and the batch id, and a batch that Spark replays
 * after a crash makes only the commits it had not made ({@link BatchLog}).
 */
public final class StreamingFlowExecutor implements FlowExecutor {
  /** Makes the sink of one flow, given its target table and its write identity. */
  @FunctionalInterface
  public interface SinkFactory {
    BatchSink create(FlowRun run, String table, BatchLog log);
  }

  private final Checkpoints checkpoints;
  private final SinkFactory sinks;

  public StreamingFlowExecutor(Checkpoints checkpoints, SinkFactory sinks) {
    this.checkpoints = checkpoints;
    this.sinks = sinks;
  }

  /** Plain appends: the default flow of a streaming table. */
  public static StreamingFlowExecutor append(Checkpoints checkpoints) {
    return new StreamingFlowExecutor(checkpoints, (run, table, log) -> (rows, batchId, count) -> {
      DeltaTarget target = DeltaTarget.table(run.target().name());
      log.begin(rows.sparkSession(), batchId, List.of(target))
          .commit(rows.sparkSession(), target, () -> DeltaWrites.append(rows, table));
      return BatchSink.Written.all(count);
    });
  }

  @Override
  public void execute(FlowRun run) {
    StoragePath checkpoint = checkpoints.location(run.target().name(), run.flow().name());
    Dataset<Row> stream = run.buildQuery();
    StreamedSources sources = run.withFlowConf(() -> StreamedSources.of(run.spark(), stream, checkpoint));
    if (sources.caughtUp()) {
      run.unchanged("its sources have no new version since it last read them: not started", Map.of("started", false));
      return;
    }
    run.starting();
    BatchSink sink = sinks.create(run, run.target().name().quoted(), BatchLog.open(checkpoints, run));
    StreamingQuery query = run.withFlowConf(() -> start(NewStreamStart.apply(run.spark(), stream, checkpoint), checkpoint, run, sink));
    await(query);
    sink.finish();
    SmallFiles.compactIfMany(run);
    sources.recordCaughtUp();
  }

  private static StreamingQuery start(Dataset<Row> stream, StoragePath checkpoint, FlowRun run, BatchSink sink) {
    try {
      return stream.writeStream()
          .option("checkpointLocation", checkpoint.toString())
          .trigger(Trigger.AvailableNow())
          .foreachBatch((VoidFunction2<Dataset<Row>, Long>) (batch, batchId) -> run.processBatch(batch, batchId, sink))
          .start();
    } catch (TimeoutException e) {
      throw new IllegalStateException("the streaming query did not start", e);
    }
  }

  /** Waits for the query; a failure inside a batch, or a stop, comes back as the exception that caused it. */
  private static void await(StreamingQuery query) {
    try {
      query.awaitTermination();
    } catch (StreamingQueryException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof SluiceException sluice) {
          throw sluice;
        }
        if (cause instanceof FlowStoppedException stopped) {
          throw stopped;
        }
      }
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      throw new FlowFailedException(SparkErrors.firstLine(root), e);
    }
  }
}
