package io.sluice.kinds.mv;

import io.sluice.common.SparkErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.CommitInfo;
import org.apache.spark.sql.delta.actions.Metadata;
import org.apache.spark.sql.delta.actions.RemoveFile;
import scala.Option;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What one input of a view did between the version the view last saw and the version its query
 * reads now, from the input's Delta log: nothing, only appended (the files it added), or more
 * (rows deleted or updated, its schema changed, its log cleaned up), which only a full recompute
 * can follow.
 */
record InputChange(DeltaInput input, long fromVersion, Kind kind, List<AddFile> appended, Optional<IncrementalizationIssue> issue) {
  enum Kind { UNCHANGED, APPENDED, CHANGED }

  InputChange {
    appended = List.copyOf(appended);
  }

  /** The bytes of the files it appended. */
  long appendedBytes() {
    return appended.stream().mapToLong(AddFile::size).sum();
  }

  /** The rows it appended, as the files' statistics count them (files without statistics count none). */
  long appendedRows() {
    return appended.stream().mapToLong(f -> f.numLogicalRecords().isDefined() ? (Long) f.numLogicalRecords().get() : 0L).sum();
  }

  /** What {@code input} did since version {@code from}: read from the commits in between, none of their data. */
  static InputChange since(DeltaInput input, long from) {
    long to = input.version();
    if (from == to) {
      return new InputChange(input, from, Kind.UNCHANGED, List.of(), Optional.empty());
    }
    if (from > to) {
      return changed(input, from, IncrementalizationIssue.INPUT_REWRITTEN, input.name() + " went back from version " + from
          + " to " + to + " (restored, or dropped and created again)");
    }
    List<AddFile> appended = new ArrayList<>();
    Set<String> compacted = new HashSet<>();
    try {
      Iterator<Tuple2<Object, Seq<Action>>> commits = input.log().getChanges(from + 1, Option.empty(), true);
      long expected = from + 1;
      while (expected <= to && commits.hasNext()) {
        Tuple2<Object, Seq<Action>> commit = commits.next();
        long version = (Long) commit._1();
        if (version != expected) {
          return gone(input, from, "its log no longer holds version " + expected);
        }
        expected++;
        List<Action> actions = CollectionConverters.asJava(commit._2());
        for (Action action : actions) {
          Optional<String> notAnAppend = notAnAppend(action, input);
          if (notAnAppend.isPresent()) {
            return changed(input, from, IncrementalizationIssue.INPUT_REWRITTEN, input.name() + " " + notAnAppend.get()
                + " at version " + version + operation(actions));
          }
          if (action instanceof AddFile add && add.dataChange()) {
            appended.add(add);
          } else if (action instanceof RemoveFile remove) {
            compacted.add(remove.path());
          }
        }
      }
      if (expected <= to) {
        return gone(input, from, "its log no longer holds version " + expected);
      }
    } catch (RuntimeException e) {
      return gone(input, from, "its log from version " + (from + 1) + " cannot be read (" + SparkErrors.firstLine(e) + ")");
    }
    Optional<String> vacuumed = vacuumed(input, appended, compacted);
    if (vacuumed.isPresent()) {
      return gone(input, from, "the file " + vacuumed.get() + " it appended was compacted and then removed (VACUUM)");
    }
    return new InputChange(input, from, appended.isEmpty() ? Kind.UNCHANGED : Kind.APPENDED, appended, Optional.empty());
  }

  /** What makes {@code action} more than an append or a rewrite of the same rows (OPTIMIZE), if anything. */
  private static Optional<String> notAnAppend(Action action, DeltaInput input) {
    if (action instanceof RemoveFile remove && remove.dataChange()) {
      return Optional.of("deleted or updated rows");
    }
    if (action instanceof AddFile add && add.dataChange() && add.deletionVector() != null) {
      return Optional.of("deleted or updated rows");
    }
    if (action instanceof Metadata metadata && (!metadata.schema().equals(input.snapshot().metadata().schema())
        || !metadata.partitionColumns().equals(input.snapshot().metadata().partitionColumns()))) {
      return Optional.of("changed its columns or partitioning");
    }
    return Optional.empty();
  }

  private static String operation(List<Action> actions) {
    return actions.stream().filter(CommitInfo.class::isInstance).map(a -> " (" + ((CommitInfo) a).operation() + ")")
        .findFirst().orElse("");
  }

  /**
   * An appended file that a later compaction (OPTIMIZE) removed stays readable until VACUUM
   * deletes it; the first such file already gone, if any.
   */
  private static Optional<String> vacuumed(DeltaInput input, List<AddFile> appended, Set<String> compacted) {
    try {
      FileSystem fs = null;
      for (AddFile add : appended) {
        if (compacted.contains(add.path())) {
          Path path = new Path(input.log().dataPath(), new Path(new java.net.URI(add.path())));
          fs = fs == null ? path.getFileSystem(input.log().newDeltaHadoopConf()) : fs;
          if (!fs.exists(path)) {
            return Optional.of(add.path());
          }
        }
      }
      return Optional.empty();
    } catch (IOException | java.net.URISyntaxException e) {
      return Optional.of("(unreadable: " + e.getMessage() + ")");
    }
  }

  private static InputChange changed(DeltaInput input, long from, String type, String reason) {
    return new InputChange(input, from, Kind.CHANGED, List.of(), Optional.of(new IncrementalizationIssue(type, reason)));
  }

  private static InputChange gone(DeltaInput input, long from, String reason) {
    return changed(input, from, IncrementalizationIssue.INPUT_VERSIONS_GONE, input.name() + ": " + reason
        + "; what changed since version " + from + " cannot be read");
  }
}
