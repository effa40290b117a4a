package io.sluice.api;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.graph.AutoCdcBuilder;
import io.sluice.graph.ColumnSelection;
import io.sluice.graph.DatasetName;
import io.sluice.graph.FlowDefinition;
import io.sluice.graph.FlowMode;
import io.sluice.graph.FlowQuery;
import io.sluice.graph.GraphException;
import io.sluice.graph.GraphRegistry;
import io.sluice.graph.SnapshotSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** The {@link AutoCdcFromSnapshotFlowBuilder} that registers into a graph. */
final class SnapshotFlow implements AutoCdcFromSnapshotFlowBuilder {
  private final GraphRegistry registry;
  private final DatasetName name;
  private final Origin origin;
  private final Function<String, DatasetName> qualify;
  // The same builder SQL fills, so both check the clauses alike.
  private final AutoCdcBuilder cdc = new AutoCdcBuilder();
  private DatasetName target;
  private String table;
  private SnapshotSource versions;

  SnapshotFlow(GraphRegistry registry, DatasetName name, Origin origin, Function<String, DatasetName> qualify) {
    this.registry = registry;
    this.name = name;
    this.origin = origin;
    this.qualify = qualify;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder into(String targetName) {
    target = qualify.apply(targetName);
    return this;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder source(String table) {
    this.table = table;
    this.versions = null;
    return this;
  }

  @Override
  public <V extends Comparable<? super V>> AutoCdcFromSnapshotFlowBuilder source(
      Class<V> versionType, SnapshotFunction<V> snapshots) {
    this.versions = new FunctionSnapshotSource<>(versionType, snapshots, origin);
    this.table = null;
    return this;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder keys(String... keys) {
    cdc.keys(List.of(keys));
    return this;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder storedAsScdType(int type) {
    cdc.storedAsScdType(type);
    return this;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder trackHistoryOn(String... columns) {
    cdc.trackHistory(ColumnSelection.only(List.of(columns)));
    return this;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder trackHistoryExcept(String... columns) {
    cdc.trackHistory(ColumnSelection.except(List.of(columns)));
    return this;
  }

  @Override
  public AutoCdcFromSnapshotFlowBuilder once() {
    cdc.once(true);
    return this;
  }

  @Override
  public void create() {
    if (target == null) {
      throw new GraphException(ErrorClass.FLOW_WITHOUT_TARGET, origin,
          "AUTO CDC FROM SNAPSHOT flow '" + name + "' needs into(target)");
    }
    if (table == null && versions == null) {
      throw new GraphException(ErrorClass.AUTO_CDC_WITHOUT_SOURCE, origin, "AUTO CDC FROM SNAPSHOT flow '" + name
          + "' needs source(table) or source(versionType, function): where its snapshots come from");
    }
    FlowMode.AutoCdcFromSnapshot mode = cdc.buildFromSnapshot(name, origin, Optional.ofNullable(versions));
    String from = table;
    FlowQuery query = from != null ? resolution -> resolution.read(from) : resolution -> resolution.declaredSnapshotColumns();
    registry.register(new FlowDefinition(name, target, query, mode, Map.of(), false, origin));
  }
}
