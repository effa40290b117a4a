package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input through {@code bin/sluice}, as a user meets it: a non-zero exit, one clear line
 * on stderr (file and line for a definition error, and a telling fragment), no stack trace
 * and none of Spark's log lines without --verbose, and nothing written (SEMANTICS §1.4).
 * Errors in the spec file are found before Spark starts; one definition error shows the
 * path through Spark. The other definition errors are checked in-process, on the shared
 * session, by {@code io.sluice.cli.BadDefinitionsTest}.
 */
class BadInputE2E {
  @TempDir static Path shared;
  @TempDir Path own;

  static final String GOOD = "CREATE STREAMING TABLE good AS SELECT * FROM STREAM read_files('landing', "
      + "format => 'json', schema => 'id BIGINT, v STRING');";

  /** The shared folder with the standard spec, one data file and {@code t.sql} holding {@code sql}. */
  static PipelineFolder definitions(String sql) {
    Path transformations = shared.resolve("transformations");
    if (Files.isDirectory(transformations)) {
      try (Stream<Path> files = Files.walk(transformations)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return PipelineFolder.create(shared, "bad")
        .json("landing/a.json", "{\"id\": 1, \"v\": \"a\"}", "{\"id\": 2, \"v\": \"b\"}")
        .sql("t.sql", sql);
  }

  /** Runs, expects a clean failure whose message matches every pattern, and no table written. */
  static CommandResult refused(Path dir, List<String> patterns, String... args) {
    CommandResult result = Sluice.PROCESS.failsCleanly(dir, args);
    String message = result.stderr().strip();
    for (String pattern : patterns) {
      assertTrue(Pattern.compile(pattern).matcher(message).find(),
          () -> "the message should match /" + pattern + "/: " + result);
    }
    assertEquals(List.of(), Sluice.tablesOnDisk(dir), () -> "nothing written: " + result);
    assertTrue(!Files.exists(dir.resolve(".sluice/checkpoints")), () -> "no flow started: " + result);
    return result;
  }

  @Test
  void malformedSqlInAQuery() {
    definitions("-- a typo on line 4\n" + GOOD + "\n\nCREATE MATERIALIZED VIEW m AS SELEC id FROM good;\n");
    refused(shared, List.of("t\\.sql:4\\b", "SELEC"), "run");
  }

  @Test
  void libraryGlobThatMatchesNothing() {
    definitions(GOOD).spec("""
        name: bad
        storage: .sluice
        libraries:
          - glob:
              include: "pipelines/**/*.sql"
        """);
    refused(shared, List.of("pipelines/\\*\\*/\\*\\.sql"), "run");
  }

  @Test
  void specWithoutName() {
    PipelineFolder.at(own).spec("storage: .sluice\nlibraries:\n  - glob:\n      include: \"transformations/**/*.sql\"\n")
        .sql("t.sql", GOOD).json("landing/a.json", "{\"id\": 1}");
    refused(own, List.of("spark-pipeline\\.yml", "'name'"), "run");
  }

  @Test
  void specWithoutStorage() {
    PipelineFolder.at(own).spec("name: nostore\nlibraries:\n  - glob:\n      include: \"transformations/**/*.sql\"\n")
        .sql("t.sql", GOOD).json("landing/a.json", "{\"id\": 1}");
    refused(own, List.of("spark-pipeline\\.yml", "'storage'"), "run");
  }

  @Test
  void specWithAnUnknownField() {
    PipelineFolder.create(own, "colourful").file("spark-pipeline.yml", """
        name: colourful
        storage: .sluice
        colour: blue
        libraries:
          - glob:
              include: "transformations/**/*.sql"
        """).sql("t.sql", GOOD).json("landing/a.json", "{\"id\": 1}");
    refused(own, List.of("spark-pipeline\\.yml", "colour"), "run");
  }
}
