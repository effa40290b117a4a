package io.sluice.execution;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.graph.DatasetName;
import io.sluice.graph.TablePins;
import io.sluice.storage.StoragePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Delta version of each table a flow that runs once read, kept in its checkpoint
 * ({@code once-input}, JSON: table -> version) before its batch begins. Its attempt after a
 * crash in the middle of the batch reads the same versions, so its commits are of the same rows
 * (SEMANTICS §7.1). Files
 * read with {@code read_files} and tables of other formats are read as they are.
 */
final class OnceInput implements TablePins {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FILE = "once-input";
  private final SparkSession spark;
  private final StoragePath file;
  private final Map<String, Long> versions;

  private OnceInput(SparkSession spark, StoragePath file, Map<String, Long> versions) {
    this.spark = spark;
    this.file = file;
    this.versions = versions;
  }

  /**
   * The versions an earlier attempt recorded, if it began its batch ({@code batchBegun}: it may
   * have made some of its commits). An attempt that stopped before (a failed expectation, a
   * query error) committed nothing, so this one reads the tables as they are now: a user who
   * fixed the input gets the fix.
   */
  static OnceInput open(SparkSession spark, StoragePath checkpoint, boolean batchBegun) {
    StoragePath file = checkpoint.resolve(FILE);
    Optional<String> recorded = batchBegun ? file.readIfExists() : Optional.empty();
    try {
      Map<String, Long> versions = recorded.isPresent()
          ? JSON.readValue(recorded.get(), new TypeReference<TreeMap<String, Long>>() {})
          : new TreeMap<>();
      return new OnceInput(spark, file, versions);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  @Override
  public Optional<Dataset<Row>> read(DatasetName table) {
    Long version = versions.get(table.key());
    if (version == null) {
      Optional<Long> current = currentVersion(table);
      if (current.isEmpty()) {
        return Optional.empty();
      }
      version = current.get();
      versions.put(table.key(), version);
    }
    return Optional.of(spark.read().option("versionAsOf", version).table(table.quoted()));
  }

  /** Records the versions read, before the flow's first commit. */
  void save() {
    try {
      file.write(JSON.writeValueAsString(versions));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the input of a flow that runs once: " + file, e);
    }
  }

  private Optional<Long> currentVersion(DatasetName table) {
    try {
      return Optional.of(DeltaTarget.table(table).version(spark));
    } catch (RuntimeException e) {
      return Optional.empty(); // not a Delta table, or no table: Spark's analyser says which
    }
  }
}
