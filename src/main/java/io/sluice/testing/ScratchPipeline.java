package io.sluice.testing;

import io.sluice.spec.PipelineSpec;
import io.sluice.spec.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * A copy of a pipeline's folder for one test, with storage and a database of its own: the test
 * writes its given rows into the copy's source folders and never touches the pipeline's
 * storage, catalog or files.
 */
public final class ScratchPipeline {
  private ScratchPipeline() {}

  /**
   * Copies {@code spec}'s folder into {@code folder}, leaving out its storage, its tests, what
   * is hidden ({@code .git}, {@code .sluice}) and the files of {@code emptied} (folders relative
   * to the pipeline's, made empty), and returns the spec of the copy: the same libraries and
   * configuration, storage in the copy, datasets in {@code database}.
   */
  static PipelineSpec copy(PipelineSpec spec, Path folder, String database, Set<Path> emptied) {
    Path root = spec.root().toAbsolutePath().normalize();
    Path storage = spec.storage().isLocal() ? spec.storage().localFolder() : null;
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.toList()) {
        Path relative = root.relativize(path);
        if (path.equals(root) || (storage != null && path.startsWith(storage)) || relative.startsWith(TestFiles.FOLDER)
            || hidden(relative)) {
          continue;
        }
        Path target = folder.resolve(relative.toString());
        if (emptied.stream().anyMatch(e -> relative.startsWith(e) && !relative.equals(e))) {
          continue;
        }
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(path, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + root + " for a test: " + e.getMessage(), e);
    }
    return new PipelineSpec(folder, folder.resolve(spec.specFile().getFileName().toString()), spec.name(),
        Storage.local(folder.resolve(".sluice")), spec.catalog(), Optional.of(database), spec.configuration(), spec.libraries());
  }

  /** The folder of the test topics of the copy in {@code folder} ({@link io.sluice.kafka.TestTopics}). */
  static String topics(Path folder) {
    return folder.resolve(".sluice/test-topics").toAbsolutePath().toString();
  }

  /** Runs {@code body} with the session's Kafka topics those of the copy in {@code folder}. */
  static <T> T withTopics(SparkSession spark, Path folder, java.util.function.Supplier<T> body) {
    spark.conf().set(io.sluice.kafka.TestTopics.FOLDER_CONF, topics(folder));
    try {
      return body.get();
    } finally {
      spark.conf().unset(io.sluice.kafka.TestTopics.FOLDER_CONF);
    }
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      if (part.toString().startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** Deletes {@code folder} and everything in it when the JVM exits (its session may hold files in it until then). */
  public static void deleteOnExit(Path folder) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      empty(folder);
      try {
        Files.deleteIfExists(folder);
      } catch (IOException e) {
        // a temporary folder: the system's cleaning of its temporary files takes it
      }
    }));
  }

  /** Deletes {@code folder}'s files, keeping the folder. */
  static void empty(Path folder) {
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        if (!path.equals(folder)) {
          Files.delete(path);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot empty " + folder + ": " + e.getMessage(), e);
    }
  }
}
