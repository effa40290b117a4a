package io.sluice.kinds.mv;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.spark.sql.delta.DeltaLog;
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
 * A table's log read back from a version to the latest commit a refresh tagged in its user
 * metadata: where a view's refresh state and its group state are found again. Commits that only
 * rearrange files ({@code OPTIMIZE}) may follow it; the newest commit that changed rows or
 * columns after it, if any, is told apart.
 *
 * @param tag what the tagged commit's metadata says; empty when no commit within reach is tagged
 * @param version the tagged commit's version
 * @param rowsChanged the newest commit after it (or within reach, if none is tagged) that changed rows or columns
 */
record TaggedCommit<T>(Optional<T> tag, long version, OptionalLong rowsChanged) {
  /** How many commits back from the version read the tagged commit is looked for. */
  private static final int LOOK_BACK = 20;

  /** Reads {@code log} back from {@code latest}, {@code tagOf} reading a commit's user metadata. */
  static <T> TaggedCommit<T> find(DeltaLog log, long latest, Function<String, Optional<T>> tagOf) {
    OptionalLong rowsChanged = OptionalLong.empty();
    for (long v = latest; v >= 0 && v > latest - LOOK_BACK; v--) {
      List<Action> actions = commit(log, v);
      for (Action action : actions) {
        if (action instanceof CommitInfo info && info.userMetadata().isDefined()) {
          Optional<T> tag = tagOf.apply(info.userMetadata().get());
          if (tag.isPresent()) {
            return new TaggedCommit<>(tag, v, rowsChanged);
          }
        }
      }
      if (rowsChanged.isEmpty() && actions.stream().anyMatch(TaggedCommit::changesRows)) {
        rowsChanged = OptionalLong.of(v);
      }
    }
    return new TaggedCommit<>(Optional.empty(), -1, rowsChanged);
  }

  /** Whether a commit's {@code action} changes the table's rows or columns (not OPTIMIZE's rearranging). */
  private static boolean changesRows(Action action) {
    return action instanceof AddFile add && add.dataChange() || action instanceof RemoveFile remove && remove.dataChange()
        || action instanceof Metadata;
  }

  private static List<Action> commit(DeltaLog log, long version) {
    Iterator<Tuple2<Object, Seq<Action>>> commits = log.getChanges(version, Option.empty(), true);
    return commits.hasNext() ? CollectionConverters.asJava(commits.next()._2()) : List.of();
  }
}
