package io.sluice.graph;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The query of a flow: SQL text or a Java function, built against a {@link FlowResolution}. */
@FunctionalInterface
public interface FlowQuery {
  Dataset<Row> build(FlowResolution resolution);

  /** The query's text when it is written in SQL (a persisted view is created from it). */
  default Optional<String> sqlText() {
    return Optional.empty();
  }
}
