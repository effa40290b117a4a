package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.lit;

import io.delta.tables.DeltaTable;
import io.sluice.common.SparkErrors;
import io.sluice.delta.KeyedCommit;
import io.sluice.execution.CommitTag;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.graph.FlowConf;
import io.sluice.storage.StoragePath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What a {@link Technique#GROUP_AGGREGATE} view keeps beside its rows ({@link GroupColumns}): a
 * Delta table under the view's checkpoints, so that a full refresh of the view clears it and
 * readers of the view never see it; one of its groups, and one of each group's count of each
 * value of its {@code count(DISTINCT ...)} column ({@link DistinctValues}). Each refresh commits it just before
 * the view, tagged with the refresh's number; the view's commit then says which refresh its rows
 * are. A refresh killed between the two left the state one refresh ahead: the next refresh
 * restores it to the version of the view's refresh before going on, so the state and the view
 * always agree.
 */
final class GroupState {
  private static final String DELETION_VECTORS_BY_DEFAULT = "spark.databricks.delta.properties.defaults.enableDeletionVectors";
  private final StoragePath path;

  private GroupState(StoragePath path) {
    this.path = path;
  }

  /** The state tables of a view, in {@code folder}. */
  record Tables(GroupState groups, GroupState values) {
    static Tables in(StoragePath folder) {
      return new Tables(new GroupState(folder.resolve("groups")), new GroupState(folder.resolve("values")));
    }

    /** Why the state as the view's refresh {@code refresh} left it cannot be read, if it cannot. */
    Optional<IncrementalizationIssue> whyNot(SparkSession spark, long refresh, boolean withValues) {
      return groups.whyNot(spark, refresh).or(() -> withValues ? values.whyNot(spark, refresh) : Optional.empty());
    }

    /** The bytes of the tables kept, which a merge reads. */
    long bytes(SparkSession spark) {
      return groups.bytes(spark) + values.bytes(spark);
    }
  }

  private Optional<IncrementalizationIssue> whyNot(SparkSession spark, long refresh) {
    try {
      if (!path.isDeltaTable()) {
        return Optional.of(missing("the view's aggregate state is not kept yet (a full recompute writes it)"));
      }
      return versionOf(spark, refresh).isPresent() ? Optional.empty()
          : Optional.of(missing("the view's aggregate state is not the one of its last refresh (" + refresh + ")"));
    } catch (RuntimeException e) {
      return Optional.of(missing("the view's aggregate state cannot be read (" + SparkErrors.firstLine(e) + ")"));
    }
  }

  private long bytes(SparkSession spark) {
    return path.isDeltaTable() ? DeltaInput.bytes(target().latest(spark)._2()) : 0;
  }

  private static IncrementalizationIssue missing(String reason) {
    return new IncrementalizationIssue(IncrementalizationIssue.STATE_NOT_KEPT, reason);
  }

  /** The state as refresh {@code refresh} left it, its table first restored to that version if a killed refresh went further. */
  Dataset<Row> read(SparkSession spark, long refresh) {
    DeltaTarget table = target();
    long version = versionOf(spark, refresh).orElseThrow(() -> new IllegalStateException(
        "the aggregate state at " + path + " has no commit of refresh " + refresh));
    if (version != table.version(spark)) {
      DeltaTable.forPath(spark, path.toString()).restoreToVersion(version);
    }
    return table.readPinned(spark);
  }

  /** Commits {@code rows} in place of the state's rows of the groups {@code keys} names, as refresh {@code tag}. */
  void replace(SparkSession spark, Dataset<Row> rows, Dataset<Row> keys, List<String> keyColumns, CommitTag tag) {
    var latest = target().latest(spark);
    DeltaWrites.tagged(spark, tag, () -> KeyedCommit.to(spark, latest._1(), latest._2(), "WRITE VIEW STATE")
        .removing(keys, keyColumns, lit(true))
        .appending(rows)
        .commit());
  }

  /** Replaces the whole state by {@code rows}, as refresh {@code tag} (a full recompute). */
  void overwrite(SparkSession spark, Dataset<Row> rows, CommitTag tag) {
    // Created with deletion vectors, so that later refreshes replace groups as the view's own rows are replaced.
    FlowConf.withSqlConf(spark, Map.of(DELETION_VECTORS_BY_DEFAULT, "true"), () -> DeltaWrites.tagged(spark, tag, () -> {
      rows.write().format("delta").mode("overwrite").option("overwriteSchema", "true").save(path.toString());
      return null;
    }));
  }

  /**
   * The state table's version as refresh {@code refresh} left it, if it is within reach: the
   * latest, when only commits that rearrange files (OPTIMIZE) came after that refresh's commit.
   */
  private OptionalLong versionOf(SparkSession spark, long refresh) {
    var current = target().latest(spark);
    long latest = current._2().version();
    TaggedCommit<CommitTag.Made> tagged = TaggedCommit.find(current._1(), latest,
        metadata -> CommitTag.madeBy(metadata).filter(made -> made.batch() == refresh));
    return tagged.tag().isEmpty() ? OptionalLong.empty()
        : OptionalLong.of(tagged.rowsChanged().isPresent() ? tagged.version() : latest);
  }

  private DeltaTarget target() {
    return DeltaTarget.location(path.toString());
  }
}
