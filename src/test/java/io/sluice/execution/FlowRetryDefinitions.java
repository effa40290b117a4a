package io.sluice.execution;

import static org.apache.spark.sql.functions.call_udf;
import static org.apache.spark.sql.functions.col;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

/** A flow whose query fails while {@link #FAILURES_LEFT} is above 0 (a transient fault, such as a lost executor). */
public class FlowRetryDefinitions implements PipelineDefinition {
  static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @Override
  public void define(Pipeline p) {
    p.streamingTable("flaky")
        .property("pipelines.maxFlowRetryAttempts", System.getProperty("sluice.test.retries", "2"))
        .query(ctx -> {
          ctx.spark().udf().register("flaky_id", (UDF1<Integer, Integer>) id -> {
            if (FAILURES_LEFT.getAndDecrement() > 0) {
              throw new IllegalStateException("a transient fault");
            }
            return id;
          }, DataTypes.IntegerType);
          return ctx.readStream("raw").select(call_udf("flaky_id", col("id")).as("id"));
        });
  }
}
