package io.sluice.session;

import io.sluice.common.Ahead;
import io.sluice.delta.SluiceSessionExtensions;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.Storage;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * Opens the Spark session a pipeline runs in. Embedded (no {@code spark.master} given, as
 * when started by {@code bin/sluice}), it is a local Spark whose Hive-compatible catalog
 * lives in an embedded Derby metastore under the pipeline's storage, so tables persist
 * across processes with no server. Under {@code spark-submit}, the cluster's settings
 * stand. The spec's {@code configuration} is applied last and wins in both cases.
 */
public final class SparkSessions {
  private SparkSessions() {}

  public static SparkSession open(PipelineSpec spec) {
    SparkSession.Builder builder = SparkSession.builder().appName("sluice: " + spec.name());
    boolean embedded = embedded(spec);
    if (embedded) {
      embeddedDefaults(spec.storage()).forEach(builder::config);
    }
    sessionSettings().forEach(builder::config);
    spec.configuration().forEach(builder::config);
    boolean hive = embedded || spec.configuration().getOrDefault("spark.sql.catalogImplementation", "").equals("hive");
    if (hive) {
      builder.enableHiveSupport();
    }
    SparkSession spark = builder.getOrCreate();
    if (hive) {
      // The metastore client's first use costs most of a second (Derby's boot when embedded).
      Ahead.start("catalog", () -> spark.sharedState().externalCatalog());
    }
    return spark;
  }

  /**
   * A session for reading while an update holds the pipeline. Embedded, the Derby metastore
   * admits one process, which the update is: this session's catalog is Spark's in-memory one,
   * to be filled with the pipeline's tables by their locations. On a cluster the shared
   * metastore admits many, and the session is the usual one.
   */
  public static SparkSession openReader(PipelineSpec spec) {
    if (!embedded(spec)) {
      return open(spec);
    }
    SparkSession.Builder builder = SparkSession.builder().appName("sluice (reading): " + spec.name());
    embeddedDefaults(spec.storage()).forEach(builder::config);
    sessionSettings().forEach(builder::config);
    spec.configuration().forEach(builder::config);
    return builder.config("spark.sql.catalogImplementation", "in-memory").getOrCreate();
  }

  /** Whether spark-submit gave a master: then the cluster's settings stand. */
  public static boolean submitted() {
    return new SparkConf().contains("spark.master");
  }

  private static boolean embedded(PipelineSpec spec) {
    return !submitted() && !spec.configuration().containsKey("spark.master");
  }

  /** Whether {@code spark}'s catalog is its own, in memory: a reader's while an update runs. */
  public static boolean inMemoryCatalog(SparkSession spark) {
    return "in-memory".equals(spark.conf().get("spark.sql.catalogImplementation", "in-memory"));
  }

  /** Settings every Sluice session needs, embedded or not. */
  public static Map<String, String> sessionSettings() {
    return Map.of(
        // Sluice's first: its scans of small Delta tables are planned before Delta's rule would plan them.
        "spark.sql.extensions", SluiceSessionExtensions.class.getName() + ",io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.streaming.schemaInference", "true",
        // Every batch of a flow plans the same queries again. Spark keeps 100 compiled classes,
        // fewer than one update of a few keyed flows generates, so each batch compiled its code
        // anew. With room for 1,000, a 10-row update of the AUTO CDC example took ~30% less time
        // (same-machine A/B of whole updates; 5,000 gained nothing more).
        "spark.sql.codegen.cache.maxEntries", "1000",
        // Outside UTC (the JVM's or the session's time zone) Delta checks the file list it derives
        // after each commit against a full reconstruction of the table's state: a Spark job per
        // commit, a check of Delta's own bookkeeping whose result the time zone cannot change.
        "spark.databricks.delta.allFilesInCrc.verificationMode.forceOnNonUTC.enabled", "false");
  }

  /**
   * A laptop's local Spark with its catalog under {@code storage}: the metastore in its local
   * folder (Derby needs a local disk), the tables in its warehouse, on S3 when storage is.
   */
  public static Map<String, String> embeddedDefaults(Storage storage) {
    Path local = storage.localFolder();
    System.setProperty("derby.system.home", local.resolve("metastore").toString());
    System.setProperty("derby.stream.error.file", local.resolve("metastore/derby.log").toString());
    return Map.ofEntries(
        Map.entry("spark.master", "local[*]"),
        Map.entry("spark.ui.enabled", "false"),
        Map.entry("spark.ui.showConsoleProgress", "false"),
        Map.entry("spark.sql.shuffle.partitions", "4"),
        Map.entry("spark.databricks.delta.snapshotPartitions", "2"),
        Map.entry("spark.sql.catalogImplementation", "hive"),
        Map.entry("spark.sql.warehouse.dir", storage.resolve("warehouse")),
        Map.entry("spark.hadoop.javax.jdo.option.ConnectionURL",
            "jdbc:derby:;databaseName=" + local.resolve("metastore/metastore_db") + ";create=true"),
        Map.entry("spark.hadoop.datanucleus.schema.autoCreateAll", "true"),
        Map.entry("spark.hadoop.hive.metastore.schema.verification", "false"),
        // Local files without a chmod or readlink process per file (see ForklessLocalFileSystem).
        // Embedded only: a cluster's executors load Hadoop's file systems from their own class
        // path, which does not hold Sluice's jar.
        Map.entry("spark.hadoop.fs.file.impl", ForklessLocalFileSystem.class.getName()),
        Map.entry("spark.hadoop.fs.AbstractFileSystem.file.impl", ForklessLocalFs.class.getName()));
  }
}
