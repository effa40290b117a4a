package io.sluice.testing;

import io.sluice.graph.ExternalSource;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Files a pipeline reads that a test may give rows to, named as {@code sluice graph} names them:
 * {@code <format> files <path>}, the path relative to the pipeline's folder.
 *
 * @param folder the folder its files are in, relative to the pipeline's folder: what a test's copy empties
 * @param file the file's name when the pipeline reads one file (a snapshot); empty for a folder
 * @param files how the pipeline reads them: format, reader options, schema
 */
record FileSource(String name, Path folder, Optional<String> file, ExternalSource.Files files) {
  private static final String FILES = " files ";

  /** A source's name as a test writes it, normalised: {@code JSON files ./data/users/} is {@code json files data/users}. */
  static String normalise(String name) {
    int at = name.indexOf(FILES);
    if (at <= 0) {
      return name.trim();
    }
    return name(name.substring(0, at).trim(), Path.of(name.substring(at + FILES.length()).trim()).normalize());
  }

  static String name(String format, Path path) {
    return format.toLowerCase(Locale.ROOT) + FILES + path;
  }

  /** The path a normalised name gives, or empty for a name of something else than files. */
  static Optional<Path> path(String normalised) {
    int at = normalised.indexOf(FILES);
    return at <= 0 ? Optional.empty() : Optional.of(Path.of(normalised.substring(at + FILES.length())));
  }

  /**
   * The file of this source that {@code given} (a normalised name) writes, relative to the
   * pipeline's folder: this source's own file, or for a source of one file a file beside it of
   * the same format (the next snapshot, {@code csv files snapshots/2026-01-02.csv}); empty when
   * {@code given} names neither. {@code update} names a file written for a folder.
   */
  Optional<Path> fileFor(String given, int update) {
    if (given.equals(name)) {
      return Optional.of(folder.resolve(file.orElse(String.format(Locale.ROOT, "sluice-test-update-%03d.%s", update, files.format()))));
    }
    Optional<Path> path = path(given);
    boolean beside = file.isPresent() && path.isPresent() && given.startsWith(files.format() + FILES)
        && folder.equals(Optional.ofNullable(path.get().getParent()).orElse(Path.of("")));
    return beside ? path : Optional.empty();
  }
}
