package io.sluice.kinds.autocdc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.execution.CommitTag;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.graph.DatasetName;
import io.sluice.storage.StoragePath;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;

/**
 * The snapshots an AUTO CDC FROM SNAPSHOT flow has applied, kept in its checkpoint: the
 * last one's number and version, and the one being applied.
 *
 * <p>Snapshot n is applied as one Delta commit tagged (app id, n) ({@link CommitTag}). Before
 * it, the log records n as pending, with the table's version before that commit; after it,
 * as the last. When a crash leaves a pending snapshot, the commits after that version say
 * whether its commit happened: if so, the flow finishes it and it becomes the last; if not,
 * it is forgotten and asked for again. So a snapshot and its version are
 * committed together, and none is applied twice or skipped (SEMANTICS §7.1).
 *
 * <p>Each entry is a small JSON file, its version typed ({@link SnapshotVersions}).
 */
final class SnapshotLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LAST = "last";
  private static final String PENDING = "pending";
  private static final String NUMBER = "number";
  private static final String VERSION = "version";
  private static final String TABLE_VERSION_BEFORE = "table_version_before";
  private static final String SOURCE = "source_fingerprint";
  private final StoragePath dir;

  private SnapshotLog(StoragePath dir) {
    this.dir = dir;
  }

  static SnapshotLog open(StoragePath dir) {
    return new SnapshotLog(dir);
  }

  /** Whether a snapshot's commit, tagged with {@code appId}, is in {@code target}. */
  static Predicate<SnapshotEntry> committedTo(SparkSession spark, DatasetName target, String appId) {
    return entry -> DeltaWrites.commitOf(spark, DeltaTarget.table(target), new CommitTag(appId, entry.number()),
        entry.tableVersionBefore() + 1) >= 0;
  }

  /**
   * Settles the snapshot a crash left pending, if any: if its commit was made
   * ({@code committed}), it is finished by {@code finish} and becomes the last; if not, it
   * is forgotten.
   */
  void settle(Predicate<SnapshotEntry> committed, Consumer<SnapshotEntry> finish) {
    Optional<SnapshotEntry> pending = read(PENDING);
    if (pending.isEmpty()) {
      return;
    }
    if (committed.test(pending.get())) {
      finish.accept(pending.get());
      commit(pending.get());
    } else {
      delete(PENDING);
    }
  }

  Optional<SnapshotEntry> last() {
    return read(LAST);
  }

  /** The number the next snapshot takes. */
  long nextNumber() {
    return last().map(e -> e.number() + 1).orElse(0L);
  }

  void begin(SnapshotEntry entry) {
    write(PENDING, entry);
  }

  void commit(SnapshotEntry entry) {
    write(LAST, entry);
    delete(PENDING);
  }

  private Optional<SnapshotEntry> read(String name) {
    StoragePath file = dir.resolve(name);
    Optional<String> read = file.readIfExists();
    if (read.isEmpty()) {
      return Optional.empty();
    }
    try {
      String text = read.get();
      return Optional.of(text.startsWith("{") ? fromJson(JSON.readTree(text)) : LegacyEntry.parse(text));
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot read the snapshot log " + file + ": " + e.getMessage(), e);
    }
  }

  private static SnapshotEntry fromJson(JsonNode node) {
    return new SnapshotEntry(node.path(NUMBER).asLong(), SnapshotVersions.fromJson(node.path(VERSION)),
        node.path(TABLE_VERSION_BEFORE).asLong(),
        node.hasNonNull(SOURCE) ? Optional.of(node.get(SOURCE).asText()) : Optional.empty());
  }

  private void write(String name, SnapshotEntry entry) {
    ObjectNode node = JSON.createObjectNode();
    node.put(NUMBER, entry.number());
    node.set(VERSION, SnapshotVersions.toJson(entry.version()));
    node.put(TABLE_VERSION_BEFORE, entry.tableVersionBefore());
    entry.source().ifPresent(source -> node.put(SOURCE, source));
    dir.resolve(name).write(node.toPrettyString() + "\n");
  }

  private void delete(String name) {
    dir.resolve(name).delete();
  }
}
