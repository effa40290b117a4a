package io.sluice.execution;

import io.sluice.graph.DatasetName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Where each streaming flow keeps its progress, and the identity its writes carry. The
 * identity ("app id") lives inside the checkpoint: a full refresh, which deletes the
 * checkpoint, gives the flow a new one, so the {@link CommitTag}s of the old batches cannot
 * make it skip the new batches that reuse their numbers.
 */
public final class Checkpoints {
  private static final String APP_ID_FILE = "sluice-app-id";
  private final Path root;
  private final Path started;

  public Checkpoints(Path storage) {
    this.root = storage.resolve("checkpoints");
    // Outside the checkpoints, so that deleting them does not delete the record that they existed.
    this.started = storage.resolve("system").resolve("started-flows");
  }

  public Path location(DatasetName target, DatasetName flow) {
    return root.resolve(safe(target.key())).resolve(safe(flow.name()));
  }

  /** Where an AUTO CDC target keeps its hidden state: beside its flows' checkpoints, cleared with them. */
  public Path autoCdcState(DatasetName target) {
    return root.resolve(safe(target.key())).resolve(".auto-cdc-state");
  }

  /** When an SCD type 1 AUTO CDC target's state was last looked through for expired tombstones. */
  public Path tombstoneCheck(DatasetName target) {
    return root.resolve(safe(target.key())).resolve(".auto-cdc-tombstones-checked-at");
  }

  /** Where an AUTO CDC FROM SNAPSHOT flow records the snapshots it applied (see {@code SnapshotLog}). */
  public Path snapshotLog(DatasetName target, DatasetName flow) {
    return location(target, flow).resolve("snapshots");
  }

  /** Whether the flow has its write identity: it ran before. */
  boolean hasAppId(DatasetName target, DatasetName flow) {
    return Files.exists(location(target, flow).resolve(APP_ID_FILE));
  }

  /** The flow's stable write identity, created with its checkpoint. */
  public String appId(DatasetName target, DatasetName flow) {
    Path file = location(target, flow).resolve(APP_ID_FILE);
    Path marker = started.resolve(safe(target.key())).resolve(safe(flow.name()));
    try {
      if (!Files.exists(file)) {
        writeAtomically(file, UUID.randomUUID().toString());
      }
      if (!Files.exists(marker)) {
        Files.createDirectories(marker.getParent());
        Files.writeString(marker, flow.name());
      }
      return Files.readString(file).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the checkpoint of flow " + flow, e);
    }
  }

  /**
   * Replaces {@code file} with {@code text} in one step (a temporary file moved over it), so
   * a crash leaves the old text or the new, never part of either.
   */
  public static void writeAtomically(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temp, text);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Whether the flow has a checkpoint that is gone: it ran (and kept one) since the last full
   * refresh of its target, and the checkpoint was deleted outside the pipeline since.
   */
  public boolean lost(DatasetName target, DatasetName flow) {
    return Files.exists(started.resolve(safe(target.key())).resolve(safe(flow.name()))) && !hasAppId(target, flow);
  }

  /** Whether any flow into {@code target} has kept a checkpoint since the last full refresh of it. */
  public boolean anyStarted(DatasetName target) {
    return Files.isDirectory(started.resolve(safe(target.key())));
  }

  /** Forgets everything a table's flows have processed. */
  public void clear(DatasetName target) {
    deleteRecursively(root.resolve(safe(target.key())));
    deleteRecursively(started.resolve(safe(target.key())));
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  private static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9_.-]", "_");
  }
}
