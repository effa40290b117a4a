package io.sluice.execution;

import io.sluice.storage.StoragePath;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.execution.datasources.DataSource;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.v2.FileDataSourceV2;
import org.apache.spark.sql.execution.streaming.runtime.StreamingRelation;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * Whether a streaming flow can have anything new to read: the identity and Delta version of each
 * table its query streams from, kept in its checkpoint ({@code sluice-caught-up}) when a run of
 * the flow ended having read everything its sources held. While every source is at the version
 * recorded, a run would start the stream only to find no new data, and pay for it: Spark asks a
 * restarted Delta source for its last batch again, and when that batch was the table's initial
 * snapshot Delta lists the snapshot's files anew, so the cost of starting grew with the table.
 *
 * <p>A folder of files stands as its listing: each file's path, size and modification time under
 * the source's paths, hidden ones included, so that any file Spark's file source could take changes
 * it. A flow that streams anything else (Kafka, a rate source) has no such record: only its stream
 * can tell what is new.
 */
final class StreamedSources {
  private static final String FILE = "sluice-caught-up";
  private final StoragePath checkpoint;
  private final StoragePath file;
  private final Optional<String> versions;

  private StreamedSources(StoragePath checkpoint, Optional<String> versions) {
    this.checkpoint = checkpoint;
    this.file = checkpoint.resolve(FILE);
    this.versions = versions;
  }

  /** The sources of {@code stream}, a flow's streaming query, as they are now. */
  static StreamedSources of(SparkSession spark, Dataset<Row> stream, StoragePath checkpoint) {
    return new StreamedSources(checkpoint, describe(spark, stream.queryExecution().analyzed()));
  }

  /**
   * Whether the flow's last run read everything these sources hold now, and its stream has no
   * batch to finish: a batch whose offsets Spark recorded and whose end it did not (a crash in
   * the middle) is run again by the stream alone, whatever its sources hold.
   */
  boolean caughtUp() {
    if (versions.isEmpty() || !file.readIfExists().map(String::trim).equals(versions)) {
      return false;
    }
    long begun = lastBatch(checkpoint, "offsets");
    return begun >= 0 && begun == lastBatch(checkpoint, "commits");
  }

  /** The highest batch number in one of Spark's logs ({@code offsets}, {@code commits}) in a checkpoint; -1 for none. */
  static long lastBatch(StoragePath checkpoint, String log) {
    return checkpoint.resolve(log).list().stream()
        .map(StoragePath::name)
        .filter(name -> name.matches("\\d+"))
        .mapToLong(Long::parseLong)
        .max().orElse(-1);
  }

  /**
   * Records that the flow's stream read everything up to these versions; called once the stream
   * ended normally, having read at least what the sources held when they were described.
   */
  void recordCaughtUp() {
    versions.ifPresent(file::write);
  }

  private static Optional<String> describe(SparkSession spark, LogicalPlan plan) {
    List<String> sources = new ArrayList<>();
    boolean[] allKnown = {true};
    plan.foreach(node -> {
      if (node.children().isEmpty() && node.isStreaming()) {
        Optional<String> source = node instanceof StreamingRelation relation
            ? deltaTable(spark, relation.dataSource()).or(() -> folder(spark, relation.dataSource()))
            : Optional.empty();
        source.ifPresentOrElse(sources::add, () -> allKnown[0] = false);
      }
      return BoxedUnit.UNIT;
    });
    if (!allKnown[0] || sources.isEmpty()) {
      return Optional.empty();
    }
    sources.sort(null);
    return Optional.of(String.join("\n", sources));
  }

  /**
   * A file source's paths and a digest of the files under them (path, size, modification time),
   * listed on the driver as the stream would list them; empty for a source that is not a file format.
   */
  private static Optional<String> folder(SparkSession spark, DataSource source) {
    Class<?> format = DataSource.lookupDataSource(source.className(), spark.sessionState().conf());
    if (!FileFormat.class.isAssignableFrom(format) && !FileDataSourceV2.class.isAssignableFrom(format)) {
      return Optional.empty();
    }
    List<String> paths = new ArrayList<>(CollectionConverters.asJava(source.paths()));
    source.options().get("path").foreach(paths::add);
    if (paths.isEmpty()) {
      return Optional.empty();
    }
    List<String> files = new ArrayList<>();
    Configuration hadoop = spark.sessionState().newHadoopConf();
    try {
      for (String path : paths) {
        Path pattern = new Path(path);
        FileSystem fs = pattern.getFileSystem(hadoop);
        FileStatus[] matched = fs.globStatus(pattern);
        for (FileStatus status : matched == null ? new FileStatus[0] : matched) {
          RemoteIterator<LocatedFileStatus> listed = fs.listFiles(status.getPath(), true);
          while (listed.hasNext()) {
            LocatedFileStatus file = listed.next();
            files.add(file.getPath() + " " + file.getLen() + " " + file.getModificationTime());
          }
        }
      }
    } catch (IOException e) {
      return Optional.empty(); // the stream lists the folder itself, and reports what fails
    }
    files.sort(null);
    return Optional.of(String.join(",", paths) + " " + files.size() + " files " + SourceFingerprint.sha256(String.join("\n", files)));
  }

  /**
   * A Delta table's location, the id Delta gave it (a table dropped and made again at the same
   * place is another table) and its current version; empty for another format, or when the id
   * is not in the version's checksum (reading it otherwise would cost a Spark job).
   */
  private static Optional<String> deltaTable(SparkSession spark, DataSource source) {
    Optional<String> location = deltaLocation(source);
    if (location.isEmpty()) {
      return Optional.empty();
    }
    Snapshot snapshot = DeltaTarget.location(location.get()).latest(spark)._2();
    if (snapshot.version() < 0 || snapshot.checksumOpt().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(location.get() + " " + snapshot.checksumOpt().get().metadata().id() + " " + snapshot.version());
  }

  /** Where a Delta source's table is: its catalog table's location, or its path; empty for another format. */
  static Optional<String> deltaLocation(DataSource source) {
    if (!source.className().toLowerCase(Locale.ROOT).contains("delta")) {
      return Optional.empty();
    }
    return source.catalogTable().isDefined()
        ? Optional.of(source.catalogTable().get().location().toString())
        : Optional.ofNullable(source.options().getOrElse("path", () -> null));
  }
}
