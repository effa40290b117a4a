package io.sluice.graph;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.HiveTableRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.DataSource;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.catalyst.streaming.StreamingRelationV2;
import org.apache.spark.sql.execution.streaming.runtime.StreamingRelation;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What a flow reads from outside the pipeline, found in its analysed query: catalog tables by
 * name, files by folder and format (the {@code read_files} calls), and Kafka topics. The pipeline's own
 * datasets are stand-ins during resolution, so they never appear here. For the picture of the
 * pipeline ({@code sluice graph}), not for its execution.
 */
final class ExternalSources {
  private static final String KAFKA_SERVERS = "kafka.bootstrap.servers";

  private ExternalSources() {}

  /** Each source as a label: {@code table wanderbricks.payments}, {@code json files /abs/landing}. */
  static Set<String> of(Dataset<Row> query) {
    Set<String> sources = new LinkedHashSet<>();
    List<LogicalPlan> leaves = CollectionConverters.asJava(query.queryExecution().analyzed().collectLeaves());
    for (LogicalPlan leaf : leaves) {
      String source = describe(leaf);
      if (source != null) {
        sources.add(source);
      }
    }
    return sources;
  }

  private static String describe(LogicalPlan leaf) {
    if (leaf instanceof LogicalRelation relation) {
      if (relation.catalogTable().isDefined()) {
        return table(relation.catalogTable());
      }
      if (relation.relation() instanceof HadoopFsRelation files) {
        List<org.apache.hadoop.fs.Path> paths = CollectionConverters.asJava(files.location().rootPaths());
        return files(files.fileFormat().toString(), paths.isEmpty() ? "" : paths.get(0).toString());
      }
    } else if (leaf instanceof StreamingRelation stream) {
      DataSource source = stream.dataSource();
      if (source.catalogTable().isDefined()) {
        return table(source.catalogTable());
      }
      List<String> paths = CollectionConverters.asJava(source.paths());
      Option<String> path = source.options().get("path");
      return files(source.className(), path.isDefined() ? path.get() : paths.isEmpty() ? "" : paths.get(0));
    } else if (leaf instanceof StreamingRelationV2 stream) {
      return stream.sourceName().equalsIgnoreCase("kafka") ? kafka(stream.extraOptions().asCaseSensitiveMap())
          : stream.sourceName() + " " + stream.table().name();
    } else if (leaf instanceof HiveTableRelation hive) {
      return "table " + hive.tableMeta().identifier().unquotedString();
    } else if (leaf instanceof DataSourceV2Relation v2 && v2.options().containsKey(KAFKA_SERVERS)) {
      return kafka(v2.options().asCaseSensitiveMap());
    } else if (leaf instanceof DataSourceV2Relation v2) {
      return v2.identifier().isDefined() ? "table " + v2.identifier().get() : "table " + v2.table().name();
    }
    return null;
  }

  /** {@code kafka topic orders}, or the pattern or assignment that stands for the topics. */
  private static String kafka(Map<String, String> options) {
    for (Map.Entry<String, String> option : options.entrySet()) {
      String key = option.getKey().toLowerCase(Locale.ROOT);
      if (key.equals("subscribe") || key.equals("subscribepattern") || key.equals("assign")) {
        return "kafka topic " + option.getValue();
      }
    }
    return "kafka";
  }

  private static String table(Option<CatalogTable> table) {
    return "table " + table.get().identifier().unquotedString();
  }

  private static String files(String format, String location) {
    String path = location.startsWith("file:") ? java.net.URI.create(location).getPath() : location;
    return format.toLowerCase(Locale.ROOT).replace("fileformat", "") + " files " + path;
  }
}
