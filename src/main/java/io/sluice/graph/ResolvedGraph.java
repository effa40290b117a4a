package io.sluice.graph;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.StructType;

/**
 * A graph whose flows are all analysed, in dependency order (every flow comes after the
 * flows of the datasets it reads), with each dataset's schema.
 */
public record ResolvedGraph(DataflowGraph graph, List<ResolvedFlow> flows, Map<DatasetName, StructType> schemas) {
  public ResolvedGraph {
    flows = List.copyOf(flows);
    schemas = Map.copyOf(schemas);
  }

  public DatasetDefinition dataset(DatasetName name) {
    return graph.datasets().get(name);
  }

  public List<ResolvedFlow> flowsInto(DatasetName target) {
    return flows.stream().filter(f -> f.target().equals(target)).collect(Collectors.toList());
  }

  /** What resolution accepted but warns about (SEMANTICS §5.7), flow by flow. */
  public List<String> warnings() {
    return flows.stream().flatMap(f -> f.output().warnings().stream()).toList();
  }

  /** Datasets in the order their first flow runs. */
  public List<DatasetDefinition> datasetsInOrder() {
    return flows.stream().map(f -> dataset(f.target())).distinct().collect(Collectors.toList());
  }
}
