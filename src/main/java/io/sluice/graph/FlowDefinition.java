package io.sluice.graph;

import io.sluice.Origin;
import java.util.Map;

/**
 * A flow as declared: it writes the rows of {@code query} into {@code target}, as its
 * {@code mode} says.
 *
 * @param sqlConf Spark SQL settings in force where the flow was defined (SQL {@code SET})
 * @param implicit whether the flow was declared by its dataset's own {@code AS query}
 */
public record FlowDefinition(
    DatasetName name,
    DatasetName target,
    FlowQuery query,
    FlowMode mode,
    Map<String, String> sqlConf,
    boolean implicit,
    Origin origin) {

  public FlowDefinition {
    sqlConf = Map.copyOf(sqlConf);
  }
}
