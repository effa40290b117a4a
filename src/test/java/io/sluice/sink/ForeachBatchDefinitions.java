package io.sluice.sink;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.sql.Row;

/** A foreach-batch sink that records each call as "batchId:rows", rows sorted; and a Delta sink by path. */
public class ForeachBatchDefinitions implements PipelineDefinition {
  static final List<String> CALLS = new CopyOnWriteArrayList<>();

  @Override
  public void define(Pipeline p) {
    p.foreachBatchSink("handler", (batch, batchId) -> CALLS.add(batchId + ":" + batch.orderBy("k").collectAsList().stream()
        .map(Row::toString).reduce("", String::concat)));
    p.flow("to_handler").into("handler").query(ctx -> ctx.readStream("events"));
    p.sink("copy").format("delta").option("path", "exports/copy").create();
    p.flow("to_copy").into("copy").query(ctx -> ctx.readStream("events"));
  }
}
