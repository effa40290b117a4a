package io.sluice.graph;

import io.sluice.Origin;
import io.sluice.expectations.Expectation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A dataset as declared, before any query is analysed.
 *
 * @param declaredSchema column definitions in Spark DDL ("id BIGINT, name STRING"), if given
 * @param properties table properties ({@code TBLPROPERTIES})
 * @param sink where a sink's rows go; empty for every other type
 * @param refreshPolicy how a materialized view refreshes ({@link RefreshPolicy#AUTO} for every other type)
 */
public record DatasetDefinition(
    DatasetName name,
    DatasetType type,
    Optional<String> declaredSchema,
    List<Expectation> expectations,
    List<String> partitionColumns,
    List<String> clusterColumns,
    Map<String, String> properties,
    Optional<String> comment,
    Optional<SinkDestination> sink,
    RefreshPolicy refreshPolicy,
    Origin origin) {

  public static final String RESET_ALLOWED = "pipelines.reset.allowed";
  /** {@code false}: updates do not maintain the table (SEMANTICS §11.1); {@code sluice maintain} still does. */
  public static final String AUTO_OPTIMIZE = "pipelines.autoOptimize.managed";
  /** The columns maintenance Z-orders the table by, comma-separated. */
  public static final String Z_ORDER_COLUMNS = "pipelines.autoOptimize.zOrderCols";

  public DatasetDefinition {
    expectations = List.copyOf(expectations);
    partitionColumns = List.copyOf(partitionColumns);
    clusterColumns = List.copyOf(clusterColumns);
    properties = Map.copyOf(properties);
  }

  /** Whether a full refresh may clear this table (SEMANTICS §1.6). */
  public boolean resetAllowed() {
    return !"false".equalsIgnoreCase(properties.getOrDefault(RESET_ALLOWED, "true").trim());
  }

  public static Builder builder(DatasetName name, DatasetType type, Origin origin) {
    return new Builder(name, type, origin);
  }

  /** Collects a definition clause by clause, as the SQL parser and the Java API meet them. */
  public static final class Builder {
    private final DatasetName name;
    private final DatasetType type;
    private final Origin origin;
    private String declaredSchema;
    private final List<Expectation> expectations = new ArrayList<>();
    private final List<String> partitionColumns = new ArrayList<>();
    private final List<String> clusterColumns = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private String comment;
    private SinkDestination sink;
    private RefreshPolicy refreshPolicy = RefreshPolicy.AUTO;

    private Builder(DatasetName name, DatasetType type, Origin origin) {
      this.name = name;
      this.type = type;
      this.origin = origin;
    }

    /** Starts from every clause of an existing definition. */
    public Builder from(DatasetDefinition other) {
      declaredSchema = other.declaredSchema().orElse(null);
      expectations.addAll(other.expectations());
      partitionColumns.addAll(other.partitionColumns());
      clusterColumns.addAll(other.clusterColumns());
      properties.putAll(other.properties());
      comment = other.comment().orElse(null);
      sink = other.sink().orElse(null);
      refreshPolicy = other.refreshPolicy();
      return this;
    }

    public Builder schema(String ddl) {
      this.declaredSchema = ddl;
      return this;
    }

    public Builder expectation(Expectation expectation) {
      expectations.add(expectation);
      return this;
    }

    public Builder partitionBy(List<String> columns) {
      partitionColumns.addAll(columns);
      return this;
    }

    public Builder clusterBy(List<String> columns) {
      clusterColumns.addAll(columns);
      return this;
    }

    public Builder property(String key, String value) {
      properties.put(key, value);
      return this;
    }

    public Builder comment(String text) {
      this.comment = text;
      return this;
    }

    public Builder sink(SinkDestination destination) {
      this.sink = destination;
      return this;
    }

    public Builder refreshPolicy(RefreshPolicy policy) {
      this.refreshPolicy = policy;
      return this;
    }

    public DatasetDefinition build() {
      return new DatasetDefinition(name, type, Optional.ofNullable(declaredSchema), expectations,
          partitionColumns, clusterColumns, properties, Optional.ofNullable(comment), Optional.ofNullable(sink),
          refreshPolicy, origin);
    }
  }
}
