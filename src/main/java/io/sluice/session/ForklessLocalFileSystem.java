package io.sluice.session;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file:}) without its child processes. Without Hadoop's
 * native library, which Maven Central does not carry, {@link RawLocalFileSystem} runs
 * {@code chmod} for every file it creates and {@code readlink} for every status a rename
 * checks: one {@code sluice run} of {@code examples/auto-cdc} started 510 processes (Delta's
 * log, checkpoints, data files). Here both are done through {@code java.nio}, the same way.
 */
public final class ForklessLocalFileSystem extends LocalFileSystem {
  public ForklessLocalFileSystem() {
    super(new Raw());
  }

  /** The raw (unchecksummed) layer, also under {@link ForklessLocalFs}. */
  static final class Raw extends RawLocalFileSystem {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      if (!POSIX) {
        super.setPermission(p, permission);
        return;
      }
      Set<PosixFilePermission> bits = PosixFilePermissions.fromString(
          permission.getUserAction().SYMBOL + permission.getGroupAction().SYMBOL + permission.getOtherAction().SYMBOL);
      Files.setPosixFilePermissions(pathToFile(p).toPath(), bits);
    }

    /** A path that is not a symbolic link has the status of the file itself; only links need Hadoop's readlink. */
    @Override
    public FileStatus getFileLinkStatus(Path f) throws IOException {
      if (!Files.isSymbolicLink(pathToFile(f).toPath())) {
        return getFileStatus(f);
      }
      return super.getFileLinkStatus(f);
    }
  }
}
