package io.sluice.execution;

import io.sluice.graph.DatasetName;
import io.sluice.storage.StoragePath;
import java.util.Optional;
import java.util.UUID;

/**
 * Where each streaming flow keeps its progress, and the identity its writes carry. The
 * identity ("app id") lives inside the checkpoint: a full refresh, which deletes the
 * checkpoint, gives the flow a new one, so the {@link CommitTag}s of the old batches cannot
 * make it skip the new batches that reuse their numbers.
 */
public final class Checkpoints {
  private static final String APP_ID_FILE = "sluice-app-id";
  private final StoragePath root;
  private final StoragePath started;

  public Checkpoints(StoragePath storage) {
    this.root = storage.resolve("checkpoints");
    // Outside the checkpoints, so that deleting them does not delete the record that they existed.
    this.started = storage.resolve("system").resolve("started-flows");
  }

  public StoragePath location(DatasetName target, DatasetName flow) {
    return root.resolve(safe(target.key())).resolve(safe(flow.name()));
  }

  /** Where an AUTO CDC target keeps its hidden state: beside its flows' checkpoints, cleared with them. */
  public StoragePath autoCdcState(DatasetName target) {
    return root.resolve(safe(target.key())).resolve(".auto-cdc-state");
  }

  /**
   * The folder of the tables where a materialized view keeps what its groups need to be merged:
   * beside its flow's checkpoint, cleared with it.
   */
  public StoragePath viewState(DatasetName target) {
    return root.resolve(safe(target.key())).resolve(".view-state");
  }

  /** When an SCD type 1 AUTO CDC target's state was last looked through for expired tombstones. */
  public StoragePath tombstoneCheck(DatasetName target) {
    return root.resolve(safe(target.key())).resolve(".auto-cdc-tombstones-checked-at");
  }

  /** Where an AUTO CDC FROM SNAPSHOT flow records the snapshots it applied (see {@code SnapshotLog}). */
  public StoragePath snapshotLog(DatasetName target, DatasetName flow) {
    return location(target, flow).resolve("snapshots");
  }

  /** Whether the flow has its write identity: it ran before. */
  boolean hasAppId(DatasetName target, DatasetName flow) {
    return location(target, flow).resolve(APP_ID_FILE).exists();
  }

  /** The flow's stable write identity, created with its checkpoint. */
  public String appId(DatasetName target, DatasetName flow) {
    StoragePath file = location(target, flow).resolve(APP_ID_FILE);
    Optional<String> appId = file.readIfExists();
    if (appId.isEmpty()) {
      appId = Optional.of(UUID.randomUUID().toString());
      file.write(appId.get());
    }
    StoragePath marker = started.resolve(safe(target.key())).resolve(safe(flow.name()));
    if (!marker.exists()) {
      marker.write(flow.name());
    }
    return appId.get().trim();
  }

  /**
   * Whether the flow has a checkpoint that is gone: it ran (and kept one) since the last full
   * refresh of its target, and the checkpoint was deleted outside the pipeline since.
   */
  public boolean lost(DatasetName target, DatasetName flow) {
    return started.resolve(safe(target.key())).resolve(safe(flow.name())).exists() && !hasAppId(target, flow);
  }

  /** Whether any flow into {@code target} has kept a checkpoint since the last full refresh of it. */
  public boolean anyStarted(DatasetName target) {
    return started.resolve(safe(target.key())).isDirectory();
  }

  /** Forgets everything a table's flows have processed. */
  public void clear(DatasetName target) {
    root.resolve(safe(target.key())).delete();
    started.resolve(safe(target.key())).delete();
  }

  private static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9_.-]", "_");
  }
}
