package io.sluice.storage;

import io.sluice.session.ForklessLocalFileSystem;
import io.sluice.spec.Storage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * A file or folder under a pipeline's storage, on whichever file system Hadoop has for its
 * scheme (the local disk, {@code s3a://}, {@code hdfs://}): the small files Sluice keeps
 * beside Spark's checkpoints (write identities, batch logs, markers). Local files go through
 * Hadoop's raw local file system, without checksum files.
 */
public final class StoragePath {
  private final FileSystem fs;
  private final Path path;

  private StoragePath(FileSystem fs, Path path) {
    this.fs = fs;
    this.path = path;
  }

  /** The root of {@code storage}, with the file systems (and credentials) of {@code spark}'s Hadoop settings. */
  public static StoragePath root(SparkSession spark, Storage storage) {
    return of(storage.uri(), spark.sessionState().newHadoopConf());
  }

  /** A path as Spark takes it: a URI, or a local path without a scheme. */
  public static StoragePath at(SparkSession spark, String location) {
    return of(new Path(location).toUri(), spark.sessionState().newHadoopConf());
  }

  /** A local folder, without Spark: for tests and tools. */
  public static StoragePath local(java.nio.file.Path folder) {
    Configuration conf = new Configuration(false);
    conf.set("fs.file.impl", ForklessLocalFileSystem.class.getName());
    return of(folder.toAbsolutePath().toUri(), conf);
  }

  private static StoragePath of(URI uri, Configuration conf) {
    if ("s3a".equals(uri.getScheme())) {
      AwsSdkLog.startQuietly();
    }
    try {
      FileSystem fs = FileSystem.get(uri, conf);
      // Small files written whole need no checksum files beside them.
      FileSystem raw = fs instanceof ChecksumFileSystem checksummed ? checksummed.getRawFileSystem() : fs;
      return new StoragePath(raw, raw.makeQualified(new Path(uri)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the file system of " + uri, e);
    }
  }

  public StoragePath resolve(String child) {
    return new StoragePath(fs, new Path(path, child));
  }

  public StoragePath parent() {
    return new StoragePath(fs, path.getParent());
  }

  public String name() {
    return path.getName();
  }

  public boolean exists() {
    try {
      return fs.exists(path);
    } catch (IOException e) {
      throw failure("cannot look at", e);
    }
  }

  public boolean isDirectory() {
    try {
      return fs.getFileStatus(path).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw failure("cannot look at", e);
    }
  }

  /**
   * Whether this is the folder of a Delta table: its transaction log holds a commit. (A
   * first commit that failed can leave the log's folder without one.)
   */
  public boolean isDeltaTable() {
    return resolve("_delta_log").list().stream().anyMatch(f -> f.name().matches("\\d+\\.(json|checkpoint.*)"));
  }

  /** The file's text, if the file exists. */
  public Optional<String> readIfExists() {
    try (InputStream in = fs.open(path)) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure("cannot read", e);
    }
  }

  /**
   * Replaces the file with {@code text} in one step, so that a crash leaves the old text or
   * the new, never part of either: on a local disk a temporary file renamed over it; an object
   * store publishes an object only whole, when it is closed.
   */
  public void write(String text) {
    boolean renameOver = "file".equals(path.toUri().getScheme());
    Path written = renameOver ? new Path(path.getParent(), path.getName() + ".tmp") : path;
    try {
      // create() makes the parent folders that are missing.
      try (OutputStream out = fs.create(written, true)) {
        out.write(text.getBytes(StandardCharsets.UTF_8));
      }
      if (renameOver && !fs.rename(written, path)) {
        throw new IOException("rename of " + written + " failed");
      }
    } catch (IOException e) {
      throw failure("cannot write", e);
    }
  }

  /** Deletes the file, or the folder with all it holds; nothing if there is none. */
  public void delete() {
    try {
      fs.delete(path, true);
    } catch (IOException e) {
      throw failure("cannot delete", e);
    }
  }

  /** The files and folders in this folder; none if there is no such folder. */
  public List<StoragePath> list() {
    try {
      return Arrays.stream(fs.listStatus(path)).map(s -> new StoragePath(fs, s.getPath())).toList();
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw failure("cannot list", e);
    }
  }

  private UncheckedIOException failure(String what, IOException e) {
    return new UncheckedIOException(what + " " + this + ": " + e.getMessage(), e);
  }

  /** The local path as a plain path, or the URI: as Spark takes paths, and as messages show them. */
  @Override
  public String toString() {
    return "file".equals(path.toUri().getScheme()) ? path.toUri().getPath() : path.toString();
  }
}
