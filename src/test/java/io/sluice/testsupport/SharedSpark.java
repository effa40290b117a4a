package io.sluice.testsupport;

import io.sluice.session.SparkSessions;
import io.sluice.spec.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * One embedded Spark session for the whole test JVM (starting Spark costs seconds). Tests
 * isolate themselves by giving each pipeline its own database and storage folder.
 */
public final class SharedSpark {
  private static SparkSession session;
  private static Path storage;

  private SharedSpark() {}

  public static synchronized SparkSession session() {
    if (session == null) {
      try {
        storage = Files.createTempDirectory("sluice-test-spark");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      SparkSession.Builder builder = SparkSession.builder().appName("sluice-tests");
      SparkSessions.embeddedDefaults(Storage.local(storage)).forEach(builder::config);
      SparkSessions.sessionSettings().forEach(builder::config);
      session = builder
          .master("local[2]")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.default.parallelism", "2")
          // A VACUUM in a test lists a table of a few files: in 10,000 tasks by default, about 25 s.
          .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "4")
          // Tests' batches are a few rows: generating code for each task's projections (Delta's
          // log replay, its statistics, encoders) cost a fifth of a test JVM's CPU, more than
          // evaluating them; whole stages are still compiled. The end-to-end tests run every
          // projection compiled, as users do.
          .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
          .enableHiveSupport()
          .getOrCreate();
    }
    return session;
  }
}
