package io.sluice.session;

import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file:}) without its child processes. Without Hadoop's
 * native library, which Maven Central does not carry, {@link RawLocalFileSystem} runs
 * {@code chmod} for every file it creates, {@code readlink} for every status a rename
 * checks and {@code ls -ld} for every status whose owner or permission is asked for (a folder
 * listed file by file, a database's folder made by the metastore): one {@code sluice run} of
 * {@code examples/auto-cdc} started 510 processes (Delta's log, checkpoints, data files), a
 * {@code list_files} over a folder of N files N more on every update. Here all three are done
 * through {@code java.nio}, the same way.
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

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      return POSIX ? new NioFileStatus(super.getFileStatus(f)) : super.getFileStatus(f);
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
      FileStatus[] listed = super.listStatus(f);
      return POSIX ? Arrays.stream(listed).map(s -> s instanceof NioFileStatus ? s : new NioFileStatus(s)).toArray(FileStatus[]::new) : listed;
    }
  }

  /**
   * A status whose owner, group and permission are read on first use, as Hadoop's own local
   * status reads them, but from the file's POSIX attributes rather than from {@code ls -ld}.
   */
  private static final class NioFileStatus extends FileStatus {
    private boolean loaded;

    NioFileStatus(FileStatus status) {
      super(status.getLen(), status.isDirectory(), status.getReplication(), status.getBlockSize(),
          status.getModificationTime(), status.getAccessTime(), null, null, null, status.getPath());
    }

    @Override
    public FsPermission getPermission() {
      load();
      return super.getPermission();
    }

    @Override
    public String getOwner() {
      load();
      return super.getOwner();
    }

    @Override
    public String getGroup() {
      load();
      return super.getGroup();
    }

    @Override
    public void write(DataOutput out) throws IOException {
      load();
      super.write(out);
    }

    private synchronized void load() {
      if (loaded) {
        return;
      }
      try {
        PosixFileAttributes attributes = Files.readAttributes(
            java.nio.file.Path.of(getPath().toUri()), PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        setPermission(FsPermission.valueOf((isDirectory() ? "d" : "-") + PosixFilePermissions.toString(attributes.permissions())));
        setOwner(attributes.owner().getName());
        setGroup(attributes.group().getName());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      loaded = true;
    }
  }
}
