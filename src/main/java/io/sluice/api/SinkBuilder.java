package io.sluice.api;

import java.util.Map;

/**
 * Declares a sink: {@code p.sink("big_orders").format("kafka").option("topic", "t").create()}.
 * Append flows write into it with {@code p.flow(f).into("big_orders")}. A Delta sink (option
 * {@code path} or {@code tableName}) is exactly-once; any other format is at-least-once.
 */
public interface SinkBuilder {
  /** {@code delta}, {@code kafka}, or any Spark data source that writes batches ({@code parquet}, ...). */
  SinkBuilder format(String format);

  SinkBuilder option(String key, String value);

  SinkBuilder options(Map<String, String> options);

  SinkBuilder comment(String comment);

  /** Registers the sink. */
  void create();
}
