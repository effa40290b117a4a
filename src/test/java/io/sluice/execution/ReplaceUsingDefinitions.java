package io.sluice.execution;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.struct;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;
import java.util.List;

/** A REPLACE USING table from the Java API, sequenced by a struct that breaks ties. */
public class ReplaceUsingDefinitions implements PipelineDefinition {
  @Override
  public void define(Pipeline pipeline) {
    pipeline.streamingTable("by_struct")
        .replaceUsing(List.of("region_id"), struct(col("seq"), col("device")))
        .query(ctx -> ctx.readStream("events"));
  }
}
