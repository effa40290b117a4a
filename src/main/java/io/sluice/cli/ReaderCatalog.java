package io.sluice.cli;

import io.sluice.common.Identifiers;
import io.sluice.common.SqlStrings;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.session.SparkSessions;
import io.sluice.spec.PipelineSpec;
import io.sluice.storage.StoragePath;
import io.sluice.update.LibraryLoader;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * The pipeline's tables in a reader's in-memory catalog, while an update holds the embedded
 * metastore: each is registered by its location in the warehouse (Hive's layout: {@code
 * warehouse/t} in the default schema, {@code warehouse/s.db/t} in another), so queries see
 * each table as of its latest commit, by the names the pipeline gives them.
 */
final class ReaderCatalog {
  private ReaderCatalog() {}

  static void register(SparkSession spark, PipelineSpec spec) {
    if (!SparkSessions.inMemoryCatalog(spark)) {
      return;
    }
    StoragePath warehouse = StoragePath.at(spark, spark.conf().get("spark.sql.warehouse.dir"));
    DataflowGraph graph = LibraryLoader.load(spec);
    for (DatasetDefinition table : graph.datasets().values()) {
      if (!table.type().isTable()) {
        continue;
      }
      String database = table.name().database().toLowerCase(Locale.ROOT);
      StoragePath location = (database.equals(PipelineSpec.DEFAULT_DATABASE) ? warehouse : warehouse.resolve(database + ".db"))
          .resolve(table.name().name().toLowerCase(Locale.ROOT));
      if (location.isDeltaTable()) {
        spark.sql("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(table.name().database()));
        spark.sql("CREATE TABLE IF NOT EXISTS " + table.name().quoted() + " USING delta LOCATION "
            + SqlStrings.literal(location.toString()));
      }
    }
    spark.sql("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(graph.defaultDatabase()));
    spark.catalog().setCurrentDatabase(graph.defaultDatabase());
  }
}
