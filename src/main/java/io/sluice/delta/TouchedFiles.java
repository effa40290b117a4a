package io.sluice.delta;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.RemoveFile;
import org.apache.spark.sql.delta.actions.SingleAction;
import org.apache.spark.sql.delta.commands.DMLWithDeletionVectorsHelper;
import org.apache.spark.sql.delta.commands.TouchedFileWithDV;
import org.apache.spark.sql.delta.stats.StatsCollectionUtils;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The actions that mark rows of some files deleted: a file whose every row goes is removed, any
 * other is added again with its new deletion vector, keeping its statistics (their bounds made
 * wide, as a deletion vector requires).
 *
 * <p>Delta's {@code DMLWithDeletionVectorsHelper.processUnmodifiedData} builds the same actions
 * with two joins of the touched files against the snapshot's statistics: four Spark jobs, about
 * half a second of a small batch. Here the touched files' statistics are read from the snapshot's
 * cached state in one filtered query, and the actions are built on the driver. A file with no
 * statistics (a table written without them) takes Delta's way, which reads them from the file's
 * footer. {@code KeyedCommitContractTest} requires the statistics and counts Delta's DELETE gives.
 */
final class TouchedFiles {
  /**
   * The actions of the touched files and the metrics a DELETE with deletion vectors shows in the
   * table's history: there, a deletion vector updated counts as one removed and one added, as a
   * file rewritten counts as one removed and one added.
   */
  record Marked(List<Action> actions, long rows, Map<String, Long> metrics) {
    static Marked of(List<Action> actions, long rows, long removedFiles, long added, long removed, long updated) {
      Map<String, Long> metrics = new LinkedHashMap<>();
      metrics.put("numRemovedFiles", removedFiles);
      metrics.put("numDeletionVectorsAdded", added + updated);
      metrics.put("numDeletionVectorsRemoved", removed + updated);
      metrics.put("numDeletionVectorsUpdated", updated);
      return new Marked(actions, rows, metrics);
    }
  }

  private TouchedFiles() {}

  /**
   * The actions and metrics of the files {@code touched} as of {@code snapshot}.
   *
   * @param listedWithStats whether the touched files' log entries carry their whole statistics (they
   *     came from the version's checksum, {@link FileSkipping}): then they are widened as they are
   */
  static Marked mark(SparkSession session, Snapshot snapshot, Seq<TouchedFileWithDV> touched,
      boolean listedWithStats) {
    List<TouchedFileWithDV> files = CollectionConverters.asJava(touched);
    long timestamp = System.currentTimeMillis();
    List<Action> actions = new ArrayList<>();
    long modified = 0;
    long fullyRemoved = 0;
    long dvAdded = 0;
    long dvRemoved = 0;
    long dvUpdated = 0;
    Map<String, AddFile> widened = listedWithStats ? widenedAsListed(files) : widened(snapshot, files);
    for (TouchedFileWithDV file : files) {
      modified += file.numberOfModifiedRows();
      AddFile entry = file.fileLogEntry();
      if (file.isFullyReplaced()) {
        fullyRemoved++;
        dvRemoved += entry.deletionVector() == null ? 0 : 1;
        actions.add(entry.removeWithTimestamp(timestamp, true));
        continue;
      }
      AddFile withStats = widened.get(entry.path());
      if (withStats == null || withStats.numPhysicalRecords().isEmpty()) {
        return delta(session, snapshot, touched);
      }
      RemoveFile remove = entry.removeRows(file.newDeletionVector(), false, true)._2();
      actions.add(withStats.removeRows(file.newDeletionVector(), false, true)._1());
      actions.add(remove);
      if (remove.deletionVector() == null) {
        dvAdded++;
      } else {
        dvUpdated++;
      }
    }
    return Marked.of(actions, modified, fullyRemoved, dvAdded, dvRemoved, dvUpdated);
  }

  /** The log entries of the files that keep some rows, with their own statistics' bounds made wide, by path. */
  private static Map<String, AddFile> widenedAsListed(List<TouchedFileWithDV> files) {
    Map<String, AddFile> byPath = new HashMap<>();
    for (TouchedFileWithDV file : files) {
      if (!file.isFullyReplaced()) {
        WideBounds.of(file.fileLogEntry()).ifPresent(wide -> byPath.put(wide.path(), wide));
      }
    }
    return byPath;
  }

  /**
   * The log entries of the files that keep some rows, with their statistics' bounds made wide,
   * by path: one query on the snapshot's cached state.
   */
  private static Map<String, AddFile> widened(Snapshot snapshot, List<TouchedFileWithDV> files) {
    Object[] paths = files.stream().filter(f -> !f.isFullyReplaced()).map(f -> f.fileLogEntry().path()).toArray();
    Map<String, AddFile> byPath = new HashMap<>();
    if (paths.length == 0) {
      return byPath;
    }
    List<AddFile> entries = snapshot
        .updateStatsToWideBounds(snapshot.withStats().where(col("path").isin(paths)), snapshot.getBaseStatsColumnName())
        .as(SingleAction.addFileEncoder()).collectAsList();
    for (AddFile entry : entries) {
      byPath.put(entry.path(), entry);
    }
    return byPath;
  }

  /** Delta's own way, for files without statistics. */
  private static Marked delta(SparkSession session, Snapshot snapshot, Seq<TouchedFileWithDV> touched) {
    Tuple2<Seq<org.apache.spark.sql.delta.actions.FileAction>, scala.collection.immutable.Map<String, Object>> built =
        DMLWithDeletionVectorsHelper.processUnmodifiedData(session, touched, snapshot,
            StatsCollectionUtils.getDataSkippingStringPrefixLength(session, snapshot.metadata()));
    Map<String, Object> metrics = CollectionConverters.asJava(built._2());
    return Marked.of(new ArrayList<>(CollectionConverters.asJava(built._1())), (Long) metrics.get("numModifiedRows"),
        (Long) metrics.get("numRemovedFiles"), (Long) metrics.get("numDeletionVectorsAdded"),
        (Long) metrics.get("numDeletionVectorsRemoved"), (Long) metrics.get("numDeletionVectorsUpdated"));
  }
}
