package io.sluice.testing;

import io.sluice.session.SparkSessions;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;

/**
 * What the tests of one JVM share: one Spark session (the caller's active one, or one opened
 * on a scratch storage, so that no pipeline's catalog is touched), each pipeline resolved once
 * per session, and a scratch folder for the tests' copies.
 */
public final class TestSession {
  private static final Map<String, TestablePipeline> RESOLVED = new ConcurrentHashMap<>();
  private static final AtomicInteger FOLDERS = new AtomicInteger();
  private static Path scratch;
  private static SparkSession opened;

  private TestSession() {}

  /** The session tests of {@code spec}'s pipeline run in: the active one, or one opened once for the JVM. */
  public static synchronized SparkSession get(PipelineSpec spec) {
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    if (active.isDefined()) {
      return active.get();
    }
    scala.Option<SparkSession> fallback = SparkSession.getDefaultSession();
    if (fallback.isDefined()) {
      return fallback.get();
    }
    if (opened == null) {
      opened = SparkSessions.open(on(spec, scratch().resolve("session")));
    }
    return opened;
  }

  /**
   * {@code spec}'s settings with storage of its own in {@code folder}, and small-data defaults
   * the pipeline's configuration may override: the session a test run opens.
   */
  public static PipelineSpec on(PipelineSpec spec, Path folder) {
    // A test's rows are few: one task per shuffle and per Delta state reconstruction. Measured on
    // `sluice test examples/auto-cdc`, 3 runs against 4 and 2 partitions: 0.91x the time, 0.87x the CPU.
    Map<String, String> conf = new LinkedHashMap<>(Map.of("spark.sql.shuffle.partitions", "1",
        "spark.databricks.delta.snapshotPartitions", "1"));
    conf.putAll(spec.configuration());
    return new PipelineSpec(folder, folder.resolve("spark-pipeline.yml"), spec.name(), Storage.local(folder),
        Optional.empty(), Optional.empty(), conf, List.of());
  }

  /** {@code spec}'s pipeline resolved in {@code spark}: once per session and pipeline folder. */
  static TestablePipeline resolved(SparkSession spark, PipelineSpec spec) {
    String key = System.identityHashCode(spark) + ":" + spec.specFile().toAbsolutePath().normalize();
    return RESOLVED.computeIfAbsent(key, k -> TestablePipeline.resolve(spark, spec, newFolder()));
  }

  /** A new folder for one test's copy of a pipeline. */
  static Path newFolder() {
    return scratch().resolve("test-" + FOLDERS.incrementAndGet());
  }

  private static synchronized Path scratch() {
    if (scratch == null) {
      try {
        scratch = Files.createTempDirectory("sluice-test-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return scratch;
  }
}
