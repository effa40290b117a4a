package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import io.sluice.common.SqlStrings;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.TableCreation;
import io.sluice.graph.ChangeFeed;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.RefreshPolicy;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.storage.StoragePath;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Makes the catalog match the graph before flows run: creates missing schemas and tables,
 * adds new columns, and performs full refreshes. A full refresh is marked on disk before
 * it starts and unmarked when done, so one cut short by a crash is finished by the next
 * update instead of leaving a table whose checkpoint is gone but whose rows are not.
 */
final class TableManager {
  private static final String DELETION_VECTORS = "delta.enableDeletionVectors";
  private final SparkSession spark;
  private final Checkpoints checkpoints;
  private final StoragePath pendingDir;

  TableManager(SparkSession spark, Checkpoints checkpoints, StoragePath storage) {
    this.spark = spark;
    this.checkpoints = checkpoints;
    this.pendingDir = storage.resolve("system").resolve("pending-full-refresh");
  }

  /** Prepares every table of the graph; returns the tables it cleared. */
  Set<DatasetName> prepare(ResolvedGraph graph, RefreshSelection selection) {
    // A materialized view may have groups replaced in place by an incremental refresh.
    Set<DatasetName> keyed = graph.flows().stream()
        .filter(f -> f.definition().mode().keyed() || incrementalView(graph.dataset(f.target())))
        .map(ResolvedFlow::target)
        .collect(Collectors.toSet());
    Set<DatasetName> toClear = new LinkedHashSet<>(selection.cleared());
    toClear.addAll(interruptedRefreshes(graph));
    graph.graph().datasets().values().stream()
        .filter(d -> d.type().isTable())
        .map(d -> d.name().quotedNamespace())
        .distinct()
        .forEach(namespace -> spark.sql("CREATE NAMESPACE IF NOT EXISTS " + namespace));
    for (DatasetDefinition table : graph.graph().datasets().values()) {
      if (table.type() == DatasetType.SINK && toClear.contains(table.name())) {
        restart(table);
      }
      if (!table.type().isTable()) {
        continue;
      }
      StructType schema = graph.schemas().get(table.name());
      table = withChangeFeedIfRead(keyed.contains(table.name()) ? withDeletionVectors(table) : table, graph);
      if (toClear.contains(table.name())) {
        clear(table, schema);
      } else if (!spark.catalog().tableExists(table.name().quoted())) {
        TableCreation.create(spark, table.name(), table.origin(), createStatement(table, schema, false));
      } else {
        evolve(table, schema);
      }
    }
    return toClear;
  }

  private static boolean incrementalView(DatasetDefinition dataset) {
    return dataset.type() == DatasetType.MATERIALIZED_VIEW && dataset.refreshPolicy() != RefreshPolicy.FULL;
  }

  /** Keyed writes delete a few rows per file: deletion vectors spare rewriting the files. */
  private static DatasetDefinition withDeletionVectors(DatasetDefinition table) {
    if (table.properties().containsKey(DELETION_VECTORS)) {
      return table;
    }
    return DatasetDefinition.builder(table.name(), table.type(), table.origin()).from(table)
        .property(DELETION_VECTORS, "true").build();
  }

  /**
   * A table whose changes the pipeline reads records them ({@link ChangeFeed#keptFor}); any other
   * keeps what its definition says, and by default has no feed, as Delta's tables.
   */
  private static DatasetDefinition withChangeFeedIfRead(DatasetDefinition table, ResolvedGraph graph) {
    if (table.properties().containsKey(ChangeFeed.ENABLE_PROPERTY) || ChangeFeed.keptFor(graph, table.name()).isEmpty()) {
      return table;
    }
    return DatasetDefinition.builder(table.name(), table.type(), table.origin()).from(table)
        .property(ChangeFeed.ENABLE_PROPERTY, "true").build();
  }

  private void clear(DatasetDefinition table, StructType schema) {
    fullRefresh(table, () -> TableCreation.create(spark, table.name(), table.origin(), createStatement(table, schema, true)));
  }

  /** A full refresh of a sink forgets what its flows read; what they wrote stays where it went. */
  private void restart(DatasetDefinition sink) {
    fullRefresh(sink, () -> {});
  }

  private void fullRefresh(DatasetDefinition dataset, Runnable reset) {
    StoragePath marker = pendingDir.resolve(dataset.name().key());
    marker.write(dataset.name().key());
    checkpoints.clear(dataset.name());
    reset.run();
    marker.delete();
  }

  private Set<DatasetName> interruptedRefreshes(ResolvedGraph graph) {
    Set<String> keys = pendingDir.list().stream().map(StoragePath::name).collect(Collectors.toSet());
    return graph.graph().datasets().keySet().stream().filter(n -> keys.contains(n.key())).collect(Collectors.toSet());
  }

  /** New columns are added; a changed type needs a full refresh (a materialized view simply gets one). */
  private void evolve(DatasetDefinition table, StructType schema) {
    StructType existing = spark.table(table.name().quoted()).schema();
    List<StructField> added = new ArrayList<>();
    for (StructField field : schema.fields()) {
      StructField current = Identifiers.field(existing, field.name()).orElse(null);
      if (current == null) {
        added.add(field);
      } else if (!current.dataType().equals(field.dataType())) {
        if (table.type() == DatasetType.MATERIALIZED_VIEW) {
          spark.sql(createStatement(table, schema, true));
          return;
        }
        throw new SluiceException(ErrorClass.TABLE_SCHEMA_CHANGED,
            table.origin(), "column '" + field.name() + "' of '" + table.name() + "' is stored as "
                + current.dataType().simpleString() + " but the flows now produce "
                + field.dataType().simpleString() + "; run with --full-refresh " + table.name().name());
      }
    }
    if (!added.isEmpty()) {
      String columns = added.stream().map(f -> new StructType(new StructField[] {f}).toDDL())
          .collect(Collectors.joining(", "));
      spark.sql("ALTER TABLE " + table.name().quoted() + " ADD COLUMNS (" + columns + ")");
    }
    // A table made before the pipeline read its changes gets the feed from its next update on.
    String feed = table.properties().get(ChangeFeed.ENABLE_PROPERTY);
    if ("true".equals(feed) && !feed.equals(DeltaTarget.table(table.name()).properties(spark).get(ChangeFeed.ENABLE_PROPERTY))) {
      spark.sql("ALTER TABLE " + table.name().quoted() + " SET TBLPROPERTIES (" + SqlStrings.literal(ChangeFeed.ENABLE_PROPERTY)
          + " = 'true')");
    }
  }

  private static String createStatement(DatasetDefinition table, StructType schema, boolean replace) {
    StringBuilder sql = new StringBuilder(replace ? "CREATE OR REPLACE TABLE " : "CREATE TABLE ");
    sql.append(table.name().quoted()).append(" (").append(schema.toDDL()).append(") USING delta");
    if (!table.partitionColumns().isEmpty()) {
      sql.append(" PARTITIONED BY (").append(quotedList(table.partitionColumns())).append(")");
    }
    if (!table.clusterColumns().isEmpty()) {
      sql.append(" CLUSTER BY (").append(quotedList(table.clusterColumns())).append(")");
    }
    table.comment().ifPresent(c -> sql.append(" COMMENT ").append(SqlStrings.literal(c)));
    if (!table.properties().isEmpty()) {
      sql.append(" TBLPROPERTIES (").append(table.properties().entrySet().stream()
          .map(e -> SqlStrings.literal(e.getKey()) + " = " + SqlStrings.literal(e.getValue()))
          .collect(Collectors.joining(", "))).append(")");
    }
    return sql.toString();
  }

  private static String quotedList(List<String> columns) {
    return columns.stream().map(Identifiers::quote).collect(Collectors.joining(", "));
  }
}
