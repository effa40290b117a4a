package io.sluice.graph;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Where a sink sends the rows its flows append (SEMANTICS §9.1, §9.2). */
public sealed interface SinkDestination {
  /** What the summary and the graph show: the format, or {@code foreach batch}. */
  String label();

  /** Whether the rows go to Kafka. */
  default boolean isKafka() {
    return false;
  }

  /** The options of a data source (names in any case); none for a handler. */
  default Map<String, String> options() {
    return Map.of();
  }

  default Optional<String> option(String name) {
    return Optional.ofNullable(options().get(name));
  }

  /**
   * A Spark data source by format ({@code delta}, {@code kafka}, {@code parquet}, ...) with its
   * options, whose names match in any case as Spark's do.
   */
  record DataSource(String format, Map<String, String> options) implements SinkDestination {
    public static final String DELTA = "delta";
    public static final String KAFKA = "kafka";
    public static final String PATH = "path";
    public static final String TABLE_NAME = "tableName";

    public DataSource {
      format = format.toLowerCase(Locale.ROOT);
      TreeMap<String, String> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      sorted.putAll(options);
      options = Collections.unmodifiableMap(sorted);
    }

    /**
     * A sink of {@code format} whose {@code path} option, if relative, starts at the pipeline
     * folder (as {@code read_files} paths do).
     */
    public static DataSource of(String format, Map<String, String> options, Path pipelineFolder) {
      Map<String, String> resolved = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      resolved.putAll(options);
      resolved.computeIfPresent(PATH, (key, path) -> PipelinePaths.resolve(path, pipelineFolder));
      return new DataSource(format, resolved);
    }

    @Override
    public boolean isKafka() {
      return format.equals(KAFKA);
    }

    @Override
    public String label() {
      return format;
    }
  }

  /** A user's function, called with each micro-batch and its id. */
  record ForeachBatch(VoidFunction2<Dataset<Row>, Long> handler) implements SinkDestination {
    @Override
    public String label() {
      return "foreach batch";
    }
  }
}
