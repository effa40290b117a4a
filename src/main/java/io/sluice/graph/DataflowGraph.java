package io.sluice.graph;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The pipeline's datasets and flows as registered: immutable, not yet resolved.
 *
 * @param defaultCatalog the catalog of unqualified names
 * @param defaultDatabase the database (schema) of unqualified names
 */
public record DataflowGraph(
    String defaultCatalog,
    String defaultDatabase,
    Map<DatasetName, DatasetDefinition> datasets,
    List<FlowDefinition> flows) {

  public DataflowGraph {
    datasets = Collections.unmodifiableMap(new LinkedHashMap<>(datasets));
    flows = List.copyOf(flows);
  }

  /** Qualifies a user's 1- to 3-part name with the defaults. */
  public DatasetName qualify(List<String> parts) {
    return DatasetName.of(parts, defaultCatalog, defaultDatabase);
  }

  public Optional<DatasetDefinition> dataset(DatasetName name) {
    return Optional.ofNullable(datasets.get(name));
  }

  public List<FlowDefinition> flowsInto(DatasetName target) {
    return flows.stream().filter(f -> f.target().equals(target)).collect(Collectors.toList());
  }
}
