package io.sluice.graph;

import io.sluice.ErrorClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects definitions from SQL files and Java classes, refusing duplicate names at once,
 * and hands out the immutable {@link DataflowGraph}.
 */
public final class GraphRegistry {
  private final String defaultCatalog;
  private final String defaultDatabase;
  private final Map<DatasetName, DatasetDefinition> datasets = new LinkedHashMap<>();
  private final Map<DatasetName, FlowDefinition> flows = new LinkedHashMap<>();

  public GraphRegistry(String defaultCatalog, String defaultDatabase) {
    this.defaultCatalog = defaultCatalog;
    this.defaultDatabase = defaultDatabase;
  }

  public String defaultCatalog() {
    return defaultCatalog;
  }

  public String defaultDatabase() {
    return defaultDatabase;
  }

  public void register(DatasetDefinition dataset) {
    DatasetDefinition previous = datasets.putIfAbsent(dataset.name(), dataset);
    if (previous != null) {
      throw new GraphException(ErrorClass.DUPLICATE_DATASET, dataset.origin(),
          "dataset '" + dataset.name() + "' is already defined at " + previous.origin());
    }
  }

  public void register(FlowDefinition flow) {
    FlowDefinition previous = flows.putIfAbsent(flow.name(), flow);
    if (previous != null) {
      throw new GraphException(ErrorClass.DUPLICATE_FLOW, flow.origin(),
          "flow '" + flow.name() + "' is already defined at " + previous.origin());
    }
  }

  public DataflowGraph toGraph() {
    return new DataflowGraph(defaultCatalog, defaultDatabase, datasets, new ArrayList<>(flows.values()));
  }

  public List<DatasetDefinition> datasets() {
    return List.copyOf(datasets.values());
  }
}
