package io.sluice.delta;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.NoMapping$;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.stats.StatsCollectionUtils;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The files of a Delta table version that may hold rows a predicate selects, chosen on the driver
 * when it can. Delta's data skipping is a Spark job over the table's file list, however small the
 * table: two per keyed batch (its state's read, its target's). Delta also writes the file list,
 * with each file's statistics, into a version's checksum while the table has at most 50 files
 * ({@code allFilesInCrc}): then the files are chosen from it ({@link FileStatsPredicate}), with no
 * job. Without it (more files, column mapping, an older writer), Delta chooses as before.
 */
public final class FileSkipping {
  private FileSkipping() {}

  /** Files chosen for a commit, and whether they carry their whole statistics (from the checksum). */
  public record Candidates(Seq<AddFile> files, boolean withStats) {}

  /**
   * The files {@code txn} reads for the rows {@code predicate} selects, recorded in the
   * transaction as its {@code filterFiles} records them, so that its conflict checks are Delta's.
   */
  public static Candidates forCommit(SparkSession session, OptimisticTransaction txn, Expression predicate) {
    Seq<Expression> filters = Scala.seq(List.of(predicate));
    Optional<Seq<AddFile>> listed = listed(session, txn.snapshot(), Optional.of(predicate));
    if (listed.isEmpty()) {
      return new Candidates(txn.filterFiles(filters, true), false);
    }
    Seq<AddFile> files = listed.get();
    txn.trackReadPredicates(filters, false, true);
    txn.trackFilesRead(files);
    return new Candidates(files, true);
  }

  /**
   * The rows of {@code snapshot} that {@code predicate} selects, read from only the files that
   * may hold them when the version's checksum lists its files; empty when it does not (read the
   * table as usual then).
   */
  public static Optional<Dataset<Row>> rows(SparkSession session, DeltaLog log, Snapshot snapshot, Column predicate) {
    Option<Seq<AddFile>> listed = listedFiles(snapshot);
    if (listed.isEmpty()) {
      return Optional.empty();
    }
    Dataset<Row> whole = log.createDataFrame(snapshot, listed.get(), false, Option.empty());
    List<AddFile> kept = matching(session, snapshot, listed.get(), condition(whole, predicate));
    // A file's deletion vector travels with its AddFile: Delta's scan of a pinned file list skips the rows it deletes.
    return Optional.of(log.createDataFrame(snapshot, Scala.seq(kept), false, Option.empty()).where(predicate));
  }

  /**
   * The files of {@code snapshot} that may hold rows {@code condition} selects (all of them without
   * one), when the version's checksum lists its files; empty when it does not.
   */
  static Optional<Seq<AddFile>> listed(SparkSession session, Snapshot snapshot, Optional<Expression> condition) {
    Option<Seq<AddFile>> listed = listedFiles(snapshot);
    if (listed.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(condition.isEmpty() ? listed.get() : Scala.seq(matching(session, snapshot, listed.get(), condition.get())));
  }

  /** The analyzed form of {@code predicate} over {@code rows}' columns. */
  public static Expression condition(Dataset<Row> rows, Column predicate) {
    return ((Filter) rows.where(predicate).queryExecution().analyzed()).condition();
  }

  /** The version's files as its checksum lists them, when it does and their statistics name columns as the table does. */
  private static Option<Seq<AddFile>> listedFiles(Snapshot snapshot) {
    if (snapshot.checksumOpt().isEmpty() || snapshot.metadata().columnMappingMode() != NoMapping$.MODULE$) {
      return Option.empty();
    }
    return snapshot.checksumOpt().get().allFiles();
  }

  private static List<AddFile> matching(SparkSession session, Snapshot snapshot, Seq<AddFile> files, Expression predicate) {
    FileStatsPredicate may = new FileStatsPredicate(predicate,
        StatsCollectionUtils.getDataSkippingStringPrefixLength(session, snapshot.metadata()));
    return CollectionConverters.asJava(files).stream().filter(may::mayMatch).toList();
  }
}
