package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/**
 * One command at a time per pipeline (SEMANTICS §7.3). An OS file lock under storage: the
 * operating system releases it when the process dies, even by SIGKILL, so a crash never
 * leaves a stale lock behind. The lock file names its holder (command, process id, start
 * time), so whoever is refused learns what to wait for.
 */
public final class PipelineLock implements AutoCloseable {
  private static final String FILE = "pipeline.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private PipelineLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the pipeline's lock for {@code command} (e.g. "sluice run"), or says who holds it. */
  public static PipelineLock acquire(Path storage, String pipelineName, String command) {
    Path file = storage.resolve(FILE);
    try {
      Files.createDirectories(storage);
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        String holder = holder(channel);
        channel.close();
        throw new SluiceException(ErrorClass.UPDATE_ALREADY_RUNNING, "pipeline '" + pipelineName + "' is in use by "
            + (holder.isEmpty() ? "another process" : holder) + " (lock " + file + "); wait for it to finish");
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((command + " (pid " + ProcessHandle.current().pid() + ", since "
          + LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + ")").getBytes(StandardCharsets.UTF_8)), 0);
      return new PipelineLock(channel, lock);
    } catch (AccessDeniedException e) {
      throw notWritable(pipelineName, storage, e.getFile(), "permission denied");
    } catch (FileSystemException e) {
      throw notWritable(pipelineName, storage, e.getFile(), e.getReason() == null ? e.getClass().getSimpleName() : e.getReason());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock " + file, e);
    }
  }

  private static SluiceException notWritable(String pipelineName, Path storage, String path, String reason) {
    return new SluiceException(ErrorClass.STORAGE_NOT_WRITABLE, "pipeline '" + pipelineName + "' cannot write its storage "
        + storage + ": " + reason + (path == null ? "" : " (" + path + ")")
        + "; give the user running Sluice write access, or set storage in spark-pipeline.yml to a folder it can write");
  }

  /** Who holds (or last held) the pipeline's lock, as its lock file names it. */
  public static String holder(Path storage) {
    try (FileChannel channel = FileChannel.open(storage.resolve(FILE), StandardOpenOption.READ)) {
      return holder(channel);
    } catch (IOException e) {
      return "another process";
    }
  }

  private static String holder(FileChannel channel) throws IOException {
    ByteBuffer text = ByteBuffer.allocate(512);
    channel.read(text, 0);
    return new String(text.array(), 0, text.position(), StandardCharsets.UTF_8).strip();
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
