package io.sluice.execution;

import io.sluice.storage.StoragePath;

/**
 * Whether a flow that runs once ({@code ONCE}, {@code once()}) has run: a file in its
 * checkpoint, so a full refresh, which deletes the checkpoint, runs it again.
 */
public final class OnceMarker {
  private final StoragePath file;

  private static final String FILE = "once-done";

  public OnceMarker(Checkpoints checkpoints, FlowRun run) {
    this.file = checkpoints.location(run.target().name(), run.flow().name()).resolve(FILE);
  }

  /** Whether the flow whose checkpoint is {@code checkpoint} has run once. */
  static boolean isDone(StoragePath checkpoint) {
    return checkpoint.resolve(FILE).exists();
  }

  public boolean done() {
    return file.exists();
  }

  public void markDone() {
    file.write("");
  }
}
