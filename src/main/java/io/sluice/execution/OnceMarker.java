package io.sluice.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a flow that runs once ({@code ONCE}, {@code once()}) has run: a file in its
 * checkpoint, so a full refresh, which deletes the checkpoint, runs it again.
 */
public final class OnceMarker {
  private final Path file;

  private static final String FILE = "once-done";

  public OnceMarker(Checkpoints checkpoints, FlowRun run) {
    this.file = checkpoints.location(run.target().name(), run.flow().name()).resolve(FILE);
  }

  /** Whether the flow whose checkpoint is {@code checkpoint} has run once. */
  static boolean isDone(Path checkpoint) {
    return Files.exists(checkpoint.resolve(FILE));
  }

  public boolean done() {
    return Files.exists(file);
  }

  public void markDone() {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, "");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record that a flow ran once: " + file, e);
    }
  }
}
