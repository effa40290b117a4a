package io.sluice.sink;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import static org.apache.spark.sql.functions.expr;

import org.apache.spark.sql.Row;

/**
 * A foreach-batch sink that records each call as "batchId:rows", rows sorted; a Delta sink by
 * path; and a table de-duplicated within a watermark with Spark's own Java API.
 */
public class ForeachBatchDefinitions implements PipelineDefinition {
  static final List<String> CALLS = new CopyOnWriteArrayList<>();

  @Override
  public void define(Pipeline p) {
    p.foreachBatchSink("handler", (batch, batchId) -> CALLS.add(batchId + ":" + batch.orderBy("k").collectAsList().stream()
        .map(Row::toString).reduce("", String::concat)));
    p.flow("to_handler").into("handler").query(ctx -> ctx.readStream("events"));
    p.sink("copy").format("delta").option("path", "exports/copy").create();
    p.streamingTable("events_once").query(ctx -> ctx.readStream("events")
        .withColumn("at", expr("timestamp'2026-12-01 12:00:00'"))
        .withWatermark("at", "10 minutes")
        .dropDuplicatesWithinWatermark("v"));
    p.flow("to_copy").into("copy").query(ctx -> ctx.readStream("events"));
  }
}
