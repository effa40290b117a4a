package io.sluice.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/** Writes a pipeline folder: the spec, SQL files under transformations/, JSON data files. */
public final class PipelineFolder {
  private final Path dir;

  private PipelineFolder(Path dir) {
    this.dir = dir;
  }

  /** A folder with the standard spec: storage .sluice, every SQL file under transformations/. */
  public static PipelineFolder create(Path dir, String name) {
    return new PipelineFolder(dir).spec("""
        name: %s
        storage: .sluice
        libraries:
          - glob:
              include: "transformations/**/*.sql"
        """.formatted(name));
  }

  /** A copy of a shipped example's spec, SQL and data in {@code dir}, without any storage a local run left in it. */
  public static PipelineFolder copyOf(Path example, Path dir) {
    try (Stream<Path> paths = Files.walk(example)) {
      for (Path source : paths.filter(p -> !example.relativize(p).toString().startsWith(".sluice")).toList()) {
        Path target = dir.resolve(example.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return at(dir);
  }

  public static PipelineFolder at(Path dir) {
    return new PipelineFolder(dir);
  }

  /**
   * Gives the pipeline a database of its own: pipelines run in one test JVM share its
   * catalog, so each keeps its tables apart (a process has a catalog of its own).
   */
  public PipelineFolder inItsOwnDatabase() {
    try {
      Files.writeString(dir.resolve("spark-pipeline.yml"), "database: " + TestPipeline.uniqueDatabase() + "\n",
          StandardOpenOption.APPEND);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public PipelineFolder spec(String yaml) {
    return file("spark-pipeline.yml", yaml);
  }

  public PipelineFolder sql(String file, String text) {
    return file("transformations/" + file, text);
  }

  /** A JSON Lines file: one object per argument. */
  public PipelineFolder json(String file, String... lines) {
    return file(file, String.join("\n", lines) + "\n");
  }

  public PipelineFolder file(String file, String text) {
    try {
      Path path = dir.resolve(file);
      Files.createDirectories(path.getParent());
      Files.writeString(path, text);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public PipelineFolder delete(String file) {
    try {
      Files.delete(dir.resolve(file));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path path(String relative) {
    return dir.resolve(relative);
  }
}
