package io.sluice.api;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.expectations.Expectation;
import io.sluice.expectations.ViolationAction;
import io.sluice.graph.AutoCdcBuilder;
import io.sluice.graph.ColumnSelection;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowDefinition;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.GraphRegistry;
import io.sluice.graph.RefreshPolicy;
import io.sluice.graph.SinkDestination;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;

/** The {@link Pipeline} handed to Java definitions: every builder registers into a {@link GraphRegistry}. */
public final class RegisteringPipeline implements Pipeline {
  private final GraphRegistry registry;
  private final Path pipelineFolder;

  /** @param pipelineFolder where relative paths of definitions (a sink's {@code path}) start */
  public RegisteringPipeline(GraphRegistry registry, Path pipelineFolder) {
    this.registry = registry;
    this.pipelineFolder = pipelineFolder;
  }

  public RegisteringPipeline(GraphRegistry registry) {
    this(registry, Path.of("").toAbsolutePath());
  }

  @Override
  public TableBuilder streamingTable(String name) {
    return new Table(name, DatasetType.STREAMING_TABLE, callerOrigin());
  }

  @Override
  public TableBuilder materializedView(String name) {
    return new Table(name, DatasetType.MATERIALIZED_VIEW, callerOrigin());
  }

  @Override
  public ViewBuilder temporaryView(String name) {
    Origin origin = callerOrigin();
    DatasetDefinition.Builder view = DatasetDefinition.builder(qualify(name, origin), DatasetType.TEMPORARY_VIEW, origin);
    return new ViewBuilder() {
      @Override
      public ViewBuilder comment(String comment) {
        view.comment(comment);
        return this;
      }

      @Override
      public void query(FlowFunction query) {
        registerWithQuery(view.build(), FlowMode.APPEND, query);
      }
    };
  }

  @Override
  public FlowBuilder flow(String name) {
    Origin origin = callerOrigin();
    DatasetName flowName = qualify(name, origin);
    return new FlowBuilder() {
      private DatasetName target;
      private FlowMode mode = FlowMode.APPEND;

      @Override
      public FlowBuilder into(String targetName) {
        target = qualify(targetName, origin);
        return this;
      }

      @Override
      public FlowBuilder replaceUsing(List<String> keys, Column sequence) {
        mode = new FlowMode.ReplaceUsing(keys, sequence);
        return this;
      }

      @Override
      public FlowBuilder replaceWhere(String predicate) {
        mode = new FlowMode.ReplaceWhere(predicate);
        return this;
      }

      @Override
      public void query(FlowFunction query) {
        if (target == null) {
          throw new GraphException(ErrorClass.FLOW_WITHOUT_TARGET, origin, "flow '" + name + "' needs into(target)");
        }
        registry.register(new FlowDefinition(flowName, target, ResolutionContext.query(query), mode, Map.of(), false, origin));
      }
    };
  }

  @Override
  public SinkBuilder sink(String name) {
    Origin origin = callerOrigin();
    return new SinkDefinition(registry, qualify(name, origin), pipelineFolder, origin);
  }

  @Override
  public void foreachBatchSink(String name, BatchHandler handler) {
    Origin origin = callerOrigin();
    registry.register(DatasetDefinition.builder(qualify(name, origin), DatasetType.SINK, origin)
        .sink(new SinkDestination.ForeachBatch(handler::handle))
        .build());
  }

  @Override
  public AutoCdcFlowBuilder autoCdcFlow(String name) {
    Origin origin = callerOrigin();
    return new AutoCdcFlow(qualify(name, origin), origin);
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder autoCdcFromSnapshotFlow(String name) {
    Origin origin = callerOrigin();
    return new SnapshotFlow(registry, qualify(name, origin), origin, target -> qualify(target, origin));
  }

  /** A dataset and the implicit flow of its defining query, named after it. */
  private void registerWithQuery(DatasetDefinition dataset, FlowMode mode, FlowFunction query) {
    registry.register(dataset);
    registry.register(new FlowDefinition(dataset.name(), dataset.name(), ResolutionContext.query(query), mode, Map.of(), true, dataset.origin()));
  }

  private DatasetName qualify(String name, Origin origin) {
    List<String> parts = Arrays.asList(name.split("\\."));
    if (parts.isEmpty() || parts.size() > 3 || parts.stream().anyMatch(String::isBlank)) {
      throw new GraphException(ErrorClass.INVALID_NAME, origin, "not a dataset name: '" + name + "'");
    }
    return DatasetName.of(parts, registry.defaultCatalog(), registry.defaultDatabase());
  }

  /** The user's line that called the API, so errors point at the definition. */
  private static Origin callerOrigin() {
    return StackWalker.getInstance()
        .walk(frames -> frames
            .filter(f -> !f.getClassName().startsWith(RegisteringPipeline.class.getName()))
            .findFirst()
            .map(f -> Origin.of(f.getClassName(), f.getLineNumber()))
            .orElse(Origin.UNKNOWN));
  }

  private final class Table implements TableBuilder {
    private final DatasetDefinition.Builder builder;
    private final DatasetType type;
    private final Origin origin;
    private FlowMode mode = FlowMode.APPEND;

    Table(String name, DatasetType type, Origin origin) {
      this.builder = DatasetDefinition.builder(qualify(name, origin), type, origin);
      this.type = type;
      this.origin = origin;
    }

    @Override
    public TableBuilder schema(String ddl) {
      builder.schema(ddl);
      return this;
    }

    @Override
    public TableBuilder comment(String comment) {
      builder.comment(comment);
      return this;
    }

    @Override
    public TableBuilder partitionBy(String... columns) {
      builder.partitionBy(List.of(columns));
      return this;
    }

    @Override
    public TableBuilder clusterBy(String... columns) {
      builder.clusterBy(List.of(columns));
      return this;
    }

    @Override
    public TableBuilder property(String key, String value) {
      builder.property(key, value);
      return this;
    }

    @Override
    public TableBuilder refreshPolicy(String policy) {
      if (type != DatasetType.MATERIALIZED_VIEW) {
        throw new GraphException(ErrorClass.REFRESH_POLICY_TARGET, callerOrigin(),
            "a refresh policy is for a materialized view; this is a " + type);
      }
      builder.refreshPolicy(RefreshPolicy.parse(policy).orElseThrow(() -> new GraphException(ErrorClass.INVALID_REFRESH_POLICY,
          callerOrigin(), "refresh policy '" + policy + "': expected AUTO, INCREMENTAL, INCREMENTAL STRICT or FULL")));
      return this;
    }

    @Override
    public TableBuilder expect(String name, String condition) {
      return expectation(name, condition, ViolationAction.WARN);
    }

    @Override
    public TableBuilder expectOrDrop(String name, String condition) {
      return expectation(name, condition, ViolationAction.DROP);
    }

    @Override
    public TableBuilder expectOrFail(String name, String condition) {
      return expectation(name, condition, ViolationAction.FAIL);
    }

    @Override
    public TableBuilder expectAll(Map<String, String> conditionsByName) {
      conditionsByName.forEach(this::expect);
      return this;
    }

    @Override
    public TableBuilder expectAllOrDrop(Map<String, String> conditionsByName) {
      conditionsByName.forEach(this::expectOrDrop);
      return this;
    }

    @Override
    public TableBuilder expectAllOrFail(Map<String, String> conditionsByName) {
      conditionsByName.forEach(this::expectOrFail);
      return this;
    }

    private TableBuilder expectation(String name, String condition, ViolationAction action) {
      builder.expectation(new Expectation(name, condition, action, callerOrigin()));
      return this;
    }

    @Override
    public TableBuilder replaceUsing(List<String> keys, Column sequence) {
      mode = new FlowMode.ReplaceUsing(keys, sequence);
      return this;
    }

    @Override
    public void query(FlowFunction query) {
      registerWithQuery(builder.build(), mode, query);
    }

    @Override
    public void create() {
      registry.register(builder.build());
    }
  }

  private final class AutoCdcFlow implements AutoCdcFlowBuilder {
    private final DatasetName name;
    private final Origin origin;
    // The same builder SQL fills, so both check the clauses alike.
    private final AutoCdcBuilder cdc = new AutoCdcBuilder();
    private DatasetName target;
    private String source;

    AutoCdcFlow(DatasetName name, Origin origin) {
      this.name = name;
      this.origin = origin;
    }

    @Override
    public AutoCdcFlowBuilder into(String targetName) {
      target = qualify(targetName, origin);
      return this;
    }

    @Override
    public AutoCdcFlowBuilder source(String table) {
      source = table;
      return this;
    }

    @Override
    public AutoCdcFlowBuilder keys(String... keys) {
      cdc.keys(List.of(keys));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder sequenceBy(Column expr) {
      cdc.sequenceBy(expr);
      return this;
    }

    @Override
    public AutoCdcFlowBuilder applyAsDeleteWhen(String condition) {
      cdc.applyAsDeleteWhen(condition);
      return this;
    }

    @Override
    public AutoCdcFlowBuilder applyAsTruncateWhen(String condition) {
      cdc.applyAsTruncateWhen(condition);
      return this;
    }

    @Override
    public AutoCdcFlowBuilder columns(String... columns) {
      cdc.columns(ColumnSelection.only(List.of(columns)));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder columnsExcept(String... columns) {
      cdc.columns(ColumnSelection.except(List.of(columns)));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder storedAsScdType(int type) {
      cdc.storedAsScdType(type);
      return this;
    }

    @Override
    public AutoCdcFlowBuilder trackHistoryOn(String... columns) {
      cdc.trackHistory(ColumnSelection.only(List.of(columns)));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder trackHistoryExcept(String... columns) {
      cdc.trackHistory(ColumnSelection.except(List.of(columns)));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder ignoreNullUpdates() {
      cdc.ignoreNullUpdates(ColumnSelection.ALL);
      return this;
    }

    @Override
    public AutoCdcFlowBuilder ignoreNullUpdatesOn(String... columns) {
      cdc.ignoreNullUpdates(ColumnSelection.only(List.of(columns)));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder ignoreNullUpdatesExcept(String... columns) {
      cdc.ignoreNullUpdates(ColumnSelection.except(List.of(columns)));
      return this;
    }

    @Override
    public AutoCdcFlowBuilder once() {
      cdc.once(true);
      return this;
    }

    @Override
    public void create() {
      if (target == null) {
        throw new GraphException(ErrorClass.FLOW_WITHOUT_TARGET, origin, "AUTO CDC flow '" + name + "' needs into(target)");
      }
      if (source == null) {
        throw new GraphException(ErrorClass.AUTO_CDC_WITHOUT_SOURCE, origin,
            "AUTO CDC flow '" + name + "' needs source(table): the change feed to apply");
      }
      FlowMode.AutoCdc mode = cdc.build(name, origin);
      String from = source;
      FlowFunction query = ctx -> mode.once() ? ctx.read(from) : ctx.readStream(from);
      registry.register(new FlowDefinition(name, target, ResolutionContext.query(query), mode, Map.of(), false, origin));
    }
  }
}
