package io.sluice.execution;

import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.VersionChecksum;
import org.apache.spark.sql.delta.stats.FileSizeHistogram;

/**
 * Keeps a streaming table that small batches feed compact, with no command run: each batch adds
 * a file or two, and a table of thousands of small files costs every read a listing and an open
 * per file. After a flow's run, when the table holds {@value #DEFAULT_ENOUGH} files under 1 MB
 * (told by the file-size histogram of its latest version's checksum: no Spark job to decide),
 * an {@code OPTIMIZE} rewrites those files, and only those: the files of a large keyed load, each
 * holding one range of keys that lets a keyed batch skip it ({@link KeyClustering}), stay as
 * written. {@code OPTIMIZE} changes no row, and streams reading the table skip its commit.
 *
 * <p>Not for a table that turns automatic maintenance off ({@code pipelines.autoOptimize.managed
 * = false}), nor one with {@code CLUSTER BY}, whose {@code OPTIMIZE} clusters it (the daily
 * maintenance does).
 */
public final class SmallFiles {
  /** How many small files make a table due; a Spark setting, so that a test can see it with a few. */
  static final String ENOUGH = "spark.sluice.smallFiles.compactAt";
  private static final long DEFAULT_ENOUGH = 50;
  private static final long SMALL_BYTES = 1L << 20;
  private static final String OPTIMIZE_SMALLER_THAN = "spark.databricks.delta.optimize.minFileSize";

  private SmallFiles() {}

  /** Compacts the target of {@code run} if it is due, under the flow's settings; records what it did as the flow's event. */
  static void compactIfMany(FlowRun run) {
    run.withFlowConf(() -> {
      compactTarget(run);
      return null;
    });
  }

  private static void compactTarget(FlowRun run) {
    DatasetDefinition table = run.target();
    if (table.type() != DatasetType.STREAMING_TABLE || !table.clusterColumns().isEmpty()
        || "false".equalsIgnoreCase(table.properties().getOrDefault(DatasetDefinition.AUTO_OPTIMIZE, "true").trim())) {
      return;
    }
    compactIfDue(run.spark(), table.name()).ifPresent(done -> {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("small_files", done.smallFiles());
      details.put("files_removed", done.filesRemoved());
      details.put("files_added", done.filesAdded());
      run.info("compacted " + done.filesRemoved() + " small files of '" + table.name().name() + "' into "
          + done.filesAdded(), details);
    });
  }

  /**
   * Rewrites the small files of {@code table} if it holds enough of them, whatever its
   * properties say: what an update does after a flow's run into a table that allows it.
   */
  public static Optional<Compacted> compactIfDue(SparkSession spark, DatasetName table) {
    long enough = Long.parseLong(spark.conf().get(ENOUGH, String.valueOf(DEFAULT_ENOUGH)).trim());
    Optional<Long> small = smallFiles(DeltaTarget.table(table).latest(spark)._2());
    if (small.isEmpty() || small.get() < enough) {
      return Optional.empty();
    }
    Row metrics = FlowConf.withSqlConf(spark, Map.of(OPTIMIZE_SMALLER_THAN, String.valueOf(SMALL_BYTES)),
        () -> spark.sql("OPTIMIZE " + table.quoted()).first().getStruct(1));
    return Optional.of(new Compacted(small.get(), metrics.getAs("numFilesRemoved"), metrics.getAs("numFilesAdded")));
  }

  /** What a compaction did: the small files it found, the files it removed and those it wrote. */
  public record Compacted(long smallFiles, long filesRemoved, long filesAdded) {}

  /** The files under {@link #SMALL_BYTES}, from the version's checksum; empty when it has no histogram. */
  private static Optional<Long> smallFiles(Snapshot snapshot) {
    if (snapshot.checksumOpt().isEmpty()) {
      return Optional.empty();
    }
    VersionChecksum checksum = snapshot.checksumOpt().get();
    if (checksum.fileSizeHistogram().isEmpty()) {
      return Optional.empty();
    }
    FileSizeHistogram histogram = checksum.fileSizeHistogram().get();
    long[] counts = histogram.fileCounts();
    long small = 0;
    // A bin counts when all of it is small: its upper bound, the next bin's lower one, is at most 1 MB.
    for (int bin = 0; bin + 1 < counts.length; bin++) {
      if ((Long) histogram.sortedBinBoundaries().apply(bin + 1) <= SMALL_BYTES) {
        small += counts[bin];
      }
    }
    return Optional.of(small);
  }
}
