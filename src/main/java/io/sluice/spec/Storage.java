package io.sluice.spec;

import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where a pipeline keeps its checkpoints, AUTO CDC state and event log: a folder on this
 * machine, or a folder of any file system Hadoop reads ({@code s3a://bucket/pipelines/sales}).
 *
 * @param uri absolute, without a trailing slash
 * @param localFolder a folder of this machine for what only works on a local disk: the
 *     pipeline's lock (an operating-system lock) and the event spool (appended line by line).
 *     Storage itself when local; otherwise {@code .sluice} in the pipeline's folder.
 */
public record Storage(URI uri, Path localFolder) {
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*");

  /**
   * {@code text} as the spec gives it: a URI with a scheme, or a folder relative to {@code root}.
   *
   * @throws IllegalArgumentException if it has a scheme and is no URI
   */
  public static Storage parse(String text, Path root) {
    if (SCHEME.matcher(text).matches()) {
      URI uri = URI.create(text.replaceAll("/+$", "")).normalize();
      if ("file".equals(uri.getScheme())) {
        return local(Path.of(uri));
      }
      return new Storage(uri, root.resolve(".sluice").toAbsolutePath().normalize());
    }
    return local(root.resolve(text));
  }

  public static Storage local(Path folder) {
    Path absolute = folder.toAbsolutePath().normalize();
    return new Storage(absolute.toUri(), absolute);
  }

  /** Whether storage is a folder of this machine's file system. */
  public boolean isLocal() {
    return "file".equals(uri.getScheme());
  }

  /** A place under storage, as Spark and Hadoop take paths. */
  public String resolve(String relative) {
    return this + "/" + relative;
  }

  /** The local folder as a plain path, or the URI. */
  @Override
  public String toString() {
    return isLocal() ? localFolder.toString() : uri.toString();
  }
}
