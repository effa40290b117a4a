package io.sluice.api;

/**
 * Datasets and flows defined in Java. Name the implementing class in the spec's libraries
 * ({@code - class: com.example.MyDefinitions}); it needs a public no-argument constructor.
 *
 * <pre>{@code
 * public class Orders implements PipelineDefinition {
 *   public void define(Pipeline p) {
 *     p.streamingTable("orders_clean")
 *         .expectOrDrop("valid_id", "order_id IS NOT NULL")
 *         .query(ctx -> ctx.readStream("orders_raw").where("amount > 0"));
 *   }
 * }
 * }</pre>
 */
@FunctionalInterface
public interface PipelineDefinition {
  void define(Pipeline pipeline);
}
