package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input, one case each: a non-zero exit, one clear line on stderr (file and line for
 * definition errors, and a telling fragment), no stack trace without --verbose, and nothing
 * written (SEMANTICS §1.4). Each definition file also defines a valid table, {@code good},
 * that a careless engine would create before noticing the error.
 *
 * <p>The definition cases share one pipeline folder, rewritten for each case: its catalog
 * (an embedded metastore) is then created once, which saves some ten seconds a case.
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
  static Sluice.Result refused(Path dir, List<String> patterns, String... args) {
    Sluice.Result result = Sluice.failsCleanly(dir, args);
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
  void malformedPipelineStatement() {
    definitions(GOOD + "\nCREATE STREAMING TABEL other AS SELECT id FROM STREAM(good);\n");
    refused(shared, List.of("t\\.sql:2\\b", "TABEL"), "run");
  }

  @Test
  void unknownTableInAQuery() {
    definitions(GOOD + "\nCREATE MATERIALIZED VIEW m AS SELECT id FROM no_such_table;\n");
    refused(shared, List.of("t\\.sql:2\\b", "no_such_table"), "run");
  }

  @Test
  void cycleBetweenTwoTables() {
    definitions(GOOD + "\nCREATE MATERIALIZED VIEW a AS SELECT id FROM b;\nCREATE MATERIALIZED VIEW b AS SELECT id FROM a;\n");
    refused(shared, List.of("t\\.sql:[23]\\b", "(?i)cycl", "\\ba\\b", "\\bb\\b"), "run");
  }

  @Test
  void flowIntoAnUndefinedTarget() {
    definitions(GOOD + "\nCREATE FLOW f AS INSERT INTO missing BY NAME SELECT * FROM STREAM(good);\n");
    refused(shared, List.of("t\\.sql:2\\b", "missing"), "run");
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
  void readFilesOnAMissingFolder() {
    definitions(GOOD + "\nCREATE STREAMING TABLE other AS SELECT * FROM STREAM read_files('nowhere', format => 'json', "
        + "schema => 'id BIGINT');\n");
    refused(shared, List.of("t\\.sql:2\\b", "nowhere"), "run");
  }

  @Test
  void fullRefreshOfAnUnknownTable() {
    definitions(GOOD);
    refused(shared, List.of("nope"), "run", "--full-refresh", "nope");
  }

  @Test
  void expectationThatDoesNotParse() {
    definitions("CREATE STREAMING TABLE good (\n  CONSTRAINT positive EXPECT (id >) ON VIOLATION DROP ROW\n)\n"
        + "AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id BIGINT, v STRING');\n");
    refused(shared, List.of("t\\.sql:[12]\\b", "positive"), "run");
  }

  @Test
  void expectationOnAnUnknownColumn() {
    definitions("CREATE STREAMING TABLE good (\n  CONSTRAINT has_price EXPECT (price > 0)\n)\n"
        + "AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id BIGINT, v STRING');\n");
    refused(shared, List.of("t\\.sql:[12]\\b", "has_price", "price"), "run");
  }

  @Test
  void twoExpectationsWithOneName() {
    definitions("CREATE STREAMING TABLE good (\n  CONSTRAINT valid EXPECT (id > 0),\n  CONSTRAINT valid EXPECT (v IS NOT NULL)\n)\n"
        + "AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id BIGINT, v STRING');\n");
    refused(shared, List.of("t\\.sql:[123]\\b", "valid"), "run");
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

  /** After every refused run in the shared folder, the catalog holds no table at all. */
  @AfterAll
  static void noTableWasCreatedInTheSharedFolder() {
    definitions(GOOD);
    List<String> tables = Sluice.query(shared, "SHOW TABLES").stream()
        .filter(t -> !t.path("isTemporary").asBoolean()).map(t -> t.path("tableName").asText()).toList();
    assertEquals(List.of(), tables, "SHOW TABLES (event_log is a temporary view)");
  }
}
