package io.sluice.api;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.GraphException;
import io.sluice.graph.GraphRegistry;
import io.sluice.graph.SinkDestination;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@link SinkBuilder} that registers into a graph. */
final class SinkDefinition implements SinkBuilder {
  private final GraphRegistry registry;
  private final DatasetDefinition.Builder sink;
  private final Path pipelineFolder;
  private final Origin origin;
  private final Map<String, String> options = new LinkedHashMap<>();
  private String format;

  SinkDefinition(GraphRegistry registry, DatasetName name, Path pipelineFolder, Origin origin) {
    this.registry = registry;
    this.sink = DatasetDefinition.builder(name, DatasetType.SINK, origin);
    this.pipelineFolder = pipelineFolder;
    this.origin = origin;
  }

  @Override
  public SinkBuilder format(String sinkFormat) {
    format = sinkFormat;
    return this;
  }

  @Override
  public SinkBuilder option(String key, String value) {
    options.put(key, value);
    return this;
  }

  @Override
  public SinkBuilder options(Map<String, String> more) {
    options.putAll(more);
    return this;
  }

  @Override
  public SinkBuilder comment(String comment) {
    sink.comment(comment);
    return this;
  }

  @Override
  public void create() {
    DatasetDefinition partial = sink.build();
    if (format == null || format.isBlank()) {
      throw new GraphException(ErrorClass.SINK_UNKNOWN_FORMAT, origin,
          "sink '" + partial.name().name() + "' needs format(...): delta, kafka, ...");
    }
    registry.register(sink.sink(SinkDestination.DataSource.of(format, options, pipelineFolder)).build());
  }
}
