package io.sluice.update;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;

/**
 * A Java definition loaded by {@link LibraryLoaderTest} through a spec's {@code class:} entry.
 * The tests find the expected origin lines through the {@code @line:} markers: keep them.
 */
public class SamplePipelineDefinition implements PipelineDefinition {
  @Override
  public void define(Pipeline p) {
    p.streamingTable("orders_clean") // @line:orders_clean
        .comment("valid orders")
        .partitionBy("day")
        .property("pipelines.reset.allowed", "false")
        .expectOrDrop("valid_id", "order_id IS NOT NULL") // @line:valid_id
        .expectOrFail("positive_amount", "amount > 0") // @line:positive_amount
        .expect("has_customer", "customer IS NOT NULL") // @line:has_customer
        .query(ctx -> ctx.readStream("orders_raw"));
    p.materializedView("daily_totals") // @line:daily_totals
        .schema("day DATE, total DECIMAL(10,2)")
        .query(ctx -> ctx.read("orders_clean"));
    p.temporaryView("recent").query(ctx -> ctx.read("orders_clean")); // @line:recent
    p.streamingTable("all_orders").create(); // @line:all_orders
    p.flow("from_eu").into("all_orders").query(ctx -> ctx.readStream("orders_clean")); // @line:from_eu
  }
}
