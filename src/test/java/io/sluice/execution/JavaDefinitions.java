package io.sluice.execution;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;

/** Java definitions that read a SQL-defined table: loaded by name from the spec in a test. */
public class JavaDefinitions implements PipelineDefinition {
  @Override
  public void define(Pipeline pipeline) {
    pipeline.streamingTable("java_even")
        .expectOrDrop("even", "id % 2 = 0")
        .query(ctx -> ctx.readStream("raw"));
    pipeline.materializedView("java_counts")
        .query(ctx -> ctx.read("raw").groupBy("v").count());
  }
}
