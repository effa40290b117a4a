package io.sluice.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Writes a pipeline folder: the spec, SQL files under transformations/, JSON data files. */
final class PipelineFolder {
  final Path dir;

  private PipelineFolder(Path dir) {
    this.dir = dir;
  }

  /** A folder with the standard spec: storage .sluice, every SQL file under transformations/. */
  static PipelineFolder create(Path dir, String name) {
    return new PipelineFolder(dir).spec("""
        name: %s
        storage: .sluice
        libraries:
          - glob:
              include: "transformations/**/*.sql"
        """.formatted(name));
  }

  /** A copy of a shipped example's spec, SQL and data in {@code dir}, without any storage a local run left in it. */
  static PipelineFolder copyOf(Path example, Path dir) {
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

  static PipelineFolder at(Path dir) {
    return new PipelineFolder(dir);
  }

  PipelineFolder spec(String yaml) {
    return file("spark-pipeline.yml", yaml);
  }

  PipelineFolder sql(String file, String text) {
    return file("transformations/" + file, text);
  }

  /** A JSON Lines file: one object per argument. */
  PipelineFolder json(String file, String... lines) {
    return file(file, String.join("\n", lines) + "\n");
  }

  PipelineFolder file(String file, String text) {
    try {
      Path path = dir.resolve(file);
      Files.createDirectories(path.getParent());
      Files.writeString(path, text);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  PipelineFolder delete(String file) {
    try {
      Files.delete(dir.resolve(file));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path path(String relative) {
    return dir.resolve(relative);
  }
}
