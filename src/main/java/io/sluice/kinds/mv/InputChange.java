package io.sluice.kinds.mv;

import io.sluice.common.SparkErrors;
import io.sluice.graph.ChangeFeed;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddCDCFile;
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
 * reads now, from the input's Delta log: nothing, only appended (the files it added), or changed
 * rows (deleted, updated), which its change data feed tells when the feed was on all along.
 *
 * @param changedBytes the bytes of the files the commits in between added, data and feed files
 * @param notAnAppend why what it did is more than appending rows, if it is
 * @param unreadable why what it did cannot be read (its log cleaned up, its feed off, its columns
 *     changed), if it cannot: only a full recompute follows it then
 * @param partitions the partition values (as its log writes them) of the files the commits in
 *     between added or removed with their rows; an unpartitioned input's one partition has none
 * @param unlisted why those partitions cannot be told, if they cannot (its log cleaned up, its
 *     columns changed, a removed file without its partition values)
 */
record InputChange(DeltaInput input, long fromVersion, Kind kind, List<AddFile> appended, long changedBytes,
    Optional<IncrementalizationIssue> notAnAppend, Optional<IncrementalizationIssue> unreadable,
    Set<Map<String, String>> partitions, Optional<IncrementalizationIssue> unlisted) {
  enum Kind { UNCHANGED, APPENDED, CHANGED }

  InputChange {
    appended = List.copyOf(appended);
    partitions = Set.copyOf(partitions);
  }

  /** The rows it appended, as the files' statistics count them (files without statistics count none). */
  long appendedRows() {
    return appended.stream().mapToLong(f -> f.numLogicalRecords().isDefined() ? (Long) f.numLogicalRecords().get() : 0L).sum();
  }

  /** The rows its commits in between changed, read from its change data feed: only for a {@link Kind#CHANGED} input. */
  Dataset<Row> changedRows(SparkSession spark) {
    return spark.read().format("delta").option(ChangeFeed.READ_OPTION, "true")
        .option("startingVersion", fromVersion + 1).option("endingVersion", input.version()).load(input.key());
  }

  /** What {@code input} did since version {@code from}: read from the commits in between, none of their data. */
  static InputChange since(DeltaInput input, long from) {
    long to = input.version();
    if (from == to) {
      return new InputChange(input, from, Kind.UNCHANGED, List.of(), 0, Optional.empty(), Optional.empty(), Set.of(),
          Optional.empty());
    }
    if (from > to) {
      return unreadable(input, from, IncrementalizationIssue.INPUT_REWRITTEN, input.name() + " went back from version "
          + from + " to " + to + " (restored, or dropped and created again)");
    }
    List<AddFile> appended = new ArrayList<>();
    Set<Map<String, String>> partitions = new HashSet<>();
    String unpartitioned = null;
    Set<String> compacted = new HashSet<>();
    long changedBytes = 0;
    String notAnAppend = null;
    boolean metadataChanged = false;
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
        changedBytes += changedBytes(actions);
        for (Action action : actions) {
          if (action instanceof Metadata metadata) {
            metadataChanged = true;
            if (!sameShape(metadata, input)) {
              return unreadable(input, from, IncrementalizationIssue.INPUT_REWRITTEN,
                  input.name() + " changed its columns or partitioning at version " + version);
            }
          }
          Optional<String> more = moreThanAnAppend(action);
          if (more.isPresent() && notAnAppend == null) {
            notAnAppend = input.name() + " " + more.get() + " at version " + version + operation(actions);
          }
          if (action instanceof AddFile add && add.dataChange()) {
            appended.add(add);
            partitions.add(CollectionConverters.asJava(add.partitionValues()));
          } else if (action instanceof RemoveFile remove && !remove.dataChange()) {
            compacted.add(remove.path());
          } else if (action instanceof RemoveFile remove) {
            if (remove.partitionValues() == null) {
              unpartitioned = "a file " + input.name() + " removed at version " + version + " has no partition values in its log";
            } else {
              partitions.add(CollectionConverters.asJava(remove.partitionValues()));
            }
          }
        }
      }
      if (expected <= to) {
        return gone(input, from, "its log no longer holds version " + expected);
      }
    } catch (RuntimeException e) {
      return gone(input, from, "its log from version " + (from + 1) + " cannot be read (" + SparkErrors.firstLine(e) + ")");
    }
    if (notAnAppend != null) {
      IncrementalizationIssue changed = new IncrementalizationIssue(IncrementalizationIssue.INPUT_REWRITTEN, notAnAppend);
      // Unchanged metadata in between: the feed was on at every version since, as it is now.
      boolean feed = !metadataChanged && "true".equalsIgnoreCase(
          input.snapshot().metadata().configuration().getOrElse(ChangeFeed.ENABLE_PROPERTY, () -> "false"));
      return new InputChange(input, from, Kind.CHANGED, List.of(), changedBytes, Optional.of(changed), feed ? Optional.empty()
          : Optional.of(new IncrementalizationIssue(IncrementalizationIssue.INPUT_REWRITTEN, notAnAppend
              + ", and its change data feed (" + ChangeFeed.ENABLE_PROPERTY + ") was not on all along")), partitions,
          Optional.ofNullable(unpartitioned).map(why -> new IncrementalizationIssue(IncrementalizationIssue.INPUT_REWRITTEN, why)));
    }
    Optional<String> vacuumed = vacuumed(input, appended, compacted);
    if (vacuumed.isPresent()) {
      return gone(input, from, "the file " + vacuumed.get() + " it appended was compacted and then removed (VACUUM)");
    }
    return new InputChange(input, from, appended.isEmpty() ? Kind.UNCHANGED : Kind.APPENDED, appended, changedBytes,
        Optional.empty(), Optional.empty(), partitions, Optional.empty());
  }

  /**
   * About the bytes of the rows a commit changed: its change data feed files when it wrote some
   * (an update, a delete, a merge), else its new data files and the files it removed whole; a
   * file re-added with a deletion vector changed only the rows its vector newly deletes, their
   * share of its bytes (the feed reads them from the vectors).
   */
  private static long changedBytes(List<Action> actions) {
    long feed = 0;
    long data = 0;
    Map<String, AddFile> readded = new HashMap<>();
    for (Action action : actions) {
      if (action instanceof AddCDCFile file) {
        feed += file.size();
      } else if (action instanceof AddFile add && add.dataChange()) {
        if (add.deletionVector() == null) {
          data += add.size();
        } else {
          readded.put(add.path(), add);
        }
      }
    }
    for (Action action : actions) {
      if (action instanceof RemoveFile remove && remove.dataChange()) {
        AddFile again = readded.get(remove.path());
        if (again == null) {
          data += remove.size().isDefined() ? (Long) remove.size().get() : 0L;
        } else {
          long before = remove.deletionVector() == null ? 0 : remove.deletionVector().cardinality();
          long rows = again.numPhysicalRecords().isDefined() ? (Long) again.numPhysicalRecords().get() : 0L;
          data += rows == 0 ? again.size() : again.size() * Math.max(0, again.deletionVector().cardinality() - before) / rows;
        }
      }
    }
    return feed > 0 ? feed : data;
  }

  /** What makes {@code action} more than an append or a rewrite of the same rows (OPTIMIZE), if anything. */
  private static Optional<String> moreThanAnAppend(Action action) {
    if (action instanceof RemoveFile remove && remove.dataChange()
        || action instanceof AddFile add && add.dataChange() && add.deletionVector() != null) {
      return Optional.of("deleted or updated rows");
    }
    return Optional.empty();
  }

  private static boolean sameShape(Metadata metadata, DeltaInput input) {
    return metadata.schema().equals(input.snapshot().metadata().schema())
        && metadata.partitionColumns().equals(input.snapshot().metadata().partitionColumns());
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
          Path path = new Path(input.log().dataPath(), new Path(new URI(add.path())));
          fs = fs == null ? path.getFileSystem(input.log().newDeltaHadoopConf()) : fs;
          if (!fs.exists(path)) {
            return Optional.of(add.path());
          }
        }
      }
      return Optional.empty();
    } catch (IOException | URISyntaxException e) {
      return Optional.of("(unreadable: " + e.getMessage() + ")");
    }
  }

  private static InputChange unreadable(DeltaInput input, long from, String type, String reason) {
    Optional<IncrementalizationIssue> issue = Optional.of(new IncrementalizationIssue(type, reason));
    return new InputChange(input, from, Kind.CHANGED, List.of(), 0, issue, issue, Set.of(), issue);
  }

  private static InputChange gone(DeltaInput input, long from, String reason) {
    return unreadable(input, from, IncrementalizationIssue.INPUT_VERSIONS_GONE, input.name() + ": " + reason
        + "; what changed since version " + from + " cannot be read");
  }
}
