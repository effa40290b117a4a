package io.sluice.graph;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What a flow reads from outside the pipeline, found in its analysed query: catalog tables by
 * name, files by folder and format (the {@code read_files} calls), and Kafka topics. The pipeline's own
 * datasets are stand-ins during resolution, so they never appear here. For the picture of the
 * pipeline ({@code sluice graph}) and for tests that give rows to its sources, not for its execution.
 */
public final class ExternalSources {
  private static final String KAFKA_SERVERS = "kafka.bootstrap.servers";

  private ExternalSources() {}

  /** Each source, in the order the query reads them. */
  public static Set<ExternalSource> of(Dataset<Row> query) {
    Set<ExternalSource> sources = new LinkedHashSet<>();
    List<LogicalPlan> leaves = CollectionConverters.asJava(query.queryExecution().analyzed().collectLeaves());
    for (LogicalPlan leaf : leaves) {
      ExternalSource source = describe(leaf);
      if (source != null) {
        sources.add(source);
      }
    }
    return sources;
  }

  private static ExternalSource describe(LogicalPlan leaf) {
    if (leaf instanceof LogicalRelation relation) {
      if (relation.catalogTable().isDefined()) {
        return table(relation.catalogTable());
      }
      if (relation.relation() instanceof HadoopFsRelation files) {
        List<org.apache.hadoop.fs.Path> paths = CollectionConverters.asJava(files.location().rootPaths());
        return files(files.fileFormat().toString(), paths.isEmpty() ? "" : paths.get(0).toString(),
            CollectionConverters.asJava(files.options()), files.dataSchema());
      }
    } else if (leaf instanceof StreamingRelation stream) {
      DataSource source = stream.dataSource();
      if (source.catalogTable().isDefined()) {
        return table(source.catalogTable());
      }
      List<String> paths = CollectionConverters.asJava(source.paths());
      Option<String> path = source.options().get("path");
      StructType schema = source.userSpecifiedSchema().isDefined() ? source.userSpecifiedSchema().get() : leaf.schema();
      return files(source.className(), path.isDefined() ? path.get() : paths.isEmpty() ? "" : paths.get(0),
          CollectionConverters.asJava(source.options()), schema);
    } else if (leaf instanceof StreamingRelationV2 stream) {
      return labelled(stream.sourceName().equalsIgnoreCase("kafka") ? kafka(stream.extraOptions().asCaseSensitiveMap())
          : stream.sourceName() + " " + stream.table().name());
    } else if (leaf instanceof HiveTableRelation hive) {
      return labelled("table " + hive.tableMeta().identifier().unquotedString());
    } else if (leaf instanceof DataSourceV2Relation v2 && v2.options().containsKey(KAFKA_SERVERS)) {
      return labelled(kafka(v2.options().asCaseSensitiveMap()));
    } else if (leaf instanceof DataSourceV2Relation v2) {
      return labelled(v2.identifier().isDefined() ? "table " + v2.identifier().get() : "table " + v2.table().name());
    }
    return null;
  }

  private static ExternalSource labelled(String label) {
    return new ExternalSource(label, Optional.empty());
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

  private static ExternalSource table(Option<CatalogTable> table) {
    return labelled("table " + table.get().identifier().unquotedString());
  }

  private static ExternalSource files(String format, String location, Map<String, String> options, StructType schema) {
    String path = location.startsWith("file:") ? java.net.URI.create(location).getPath() : location;
    String name = format.toLowerCase(Locale.ROOT).replace("fileformat", "");
    Map<String, String> reader = new LinkedHashMap<>(options);
    reader.remove("path");
    return new ExternalSource(name + " files " + path, Optional.of(new ExternalSource.Files(name, path, reader, schema)));
  }
}
