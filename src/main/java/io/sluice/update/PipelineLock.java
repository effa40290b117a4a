package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One update at a time per pipeline (SEMANTICS §7.3). An OS file lock under storage: the
 * operating system releases it when the process dies, even by SIGKILL, so a crash never
 * leaves a stale lock behind.
 */
public final class PipelineLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private PipelineLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  public static PipelineLock acquire(Path storage, String pipelineName) {
    try {
      Files.createDirectories(storage);
      FileChannel channel = FileChannel.open(storage.resolve("pipeline.lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        throw new SluiceException(ErrorClass.UPDATE_ALREADY_RUNNING,
            "pipeline '" + pipelineName + "' is already being updated by another process (lock "
                + storage.resolve("pipeline.lock") + "); wait for it to finish");
      }
      return new PipelineLock(channel, lock);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock " + storage, e);
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
