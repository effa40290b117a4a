package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testing.TestPipeline;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graph errors that need queries analysed (SEMANTICS §1.4): each fails the update before any
 * data is touched, naming the file and line of the definition at fault.
 */
class ValidationTest {
  @TempDir Path dir;

  private SluiceException failsToRun(String sql) {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n")
        .sql(sql);
    SluiceException error = assertThrows(SluiceException.class, p::run);
    assertFalse(p.spark().catalog().databaseExists(p.database()), "nothing is written: " + error.userMessage());
    return error;
  }

  @Test
  void unknownTable() {
    SluiceException e = failsToRun("""
        CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;

        CREATE MATERIALIZED VIEW b AS
          SELECT * FROM no_such_table;
        """);
    assertEquals("TABLE_OR_VIEW_NOT_FOUND", e.errorClass());
    assertEquals("transformations/pipeline.sql:3", e.origin().toString());
    assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
  }

  @Test
  void unknownColumn() {
    SluiceException e = failsToRun("CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\nCREATE MATERIALIZED VIEW b AS SELECT y FROM a;");
    assertEquals("UNRESOLVED_COLUMN.WITH_SUGGESTION", e.errorClass());
    assertEquals(2, e.origin().line());
  }

  @Test
  void cycle() {
    SluiceException e = failsToRun("""
        CREATE MATERIALIZED VIEW a AS SELECT * FROM b;
        CREATE MATERIALIZED VIEW b AS SELECT * FROM a;
        """);
    assertEquals("CYCLIC_DEPENDENCY", e.errorClass());
    assertTrue(e.getMessage().contains("a -> b -> a") || e.getMessage().contains("b -> a -> b"), e.getMessage());
  }

  @Test
  void streamingReadOfAMaterializedView() {
    SluiceException e = failsToRun("""
        CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;
        CREATE STREAMING TABLE b AS SELECT * FROM STREAM(a);
        """);
    assertEquals("STREAMING_READ_OF_BATCH_DATASET", e.errorClass());
    assertEquals(2, e.origin().line());
  }

  @Test
  void streamingTableWithABatchQuery() {
    SluiceException e = failsToRun("""
        CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;
        CREATE STREAMING TABLE b AS SELECT * FROM a;
        """);
    assertEquals("FLOW_NOT_STREAMING", e.errorClass());
  }

  @Test
  void materializedViewOverAStream() {
    SluiceException e = failsToRun("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
        CREATE MATERIALIZED VIEW b AS SELECT * FROM STREAM(raw);
        """);
    assertEquals("STREAMING_QUERY_IN_MATERIALIZED_VIEW", e.errorClass());
  }

  @Test
  void expectationOnAnUnknownColumn() {
    SluiceException e = failsToRun("""
        CREATE MATERIALIZED VIEW a (
          CONSTRAINT ok EXPECT (x > 0),
          CONSTRAINT typo EXPECT (nope > 0) ON VIOLATION DROP ROW
        ) AS SELECT 1 AS x;
        """);
    assertEquals("INVALID_EXPECTATION", e.errorClass());
    assertEquals(3, e.origin().line());
    assertTrue(e.getMessage().contains("'typo'") && e.getMessage().contains("nope"), e.getMessage());
  }

  @Test
  void expectationThatDoesNotParse() {
    SluiceException e = failsToRun("CREATE MATERIALIZED VIEW a (CONSTRAINT bad EXPECT (x >)) AS SELECT 1 AS x;");
    assertEquals("INVALID_EXPECTATION", e.errorClass());
    assertTrue(e.getMessage().contains("'bad'"), e.getMessage());
  }

  @Test
  void columnOutsideTheDeclaredSchema() {
    SluiceException e = failsToRun("CREATE MATERIALIZED VIEW a (x INT) AS SELECT 1 AS x, 2 AS y;");
    assertEquals("COLUMN_NOT_IN_SCHEMA", e.errorClass());
  }

  @Test
  void readFilesOnAMissingFolder() {
    SluiceException e = failsToRun("CREATE STREAMING TABLE a AS SELECT * FROM STREAM read_files('nowhere', format => 'json');");
    assertEquals("READ_FILES_PATH_NOT_FOUND", e.errorClass());
    assertTrue(e.getMessage().contains("nowhere"), e.getMessage());
  }

  @Test
  void syntaxErrorInsideAQueryPointsAtItsLine() {
    SluiceException e = failsToRun("""
        CREATE MATERIALIZED VIEW a AS
          SELECT 1 AS x
          FORM somewhere;
        """);
    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(3, e.origin().line());
    assertTrue(e.getMessage().contains("PARSE_SYNTAX_ERROR") && e.getMessage().contains("FORM"), e.getMessage());
  }

  private static final String SOURCE =
      "STREAM read_files('landing', format => 'json', schema => 'id INT, v STRING, m MAP<STRING, INT>')";

  @Test
  void replaceUsingErrorsOfSection25() {
    assertEquals("REPLACE_USING_WITHOUT_KEYS", failsToRun(
        "CREATE STREAMING TABLE t FLOW REPLACE USING () SEQUENCE BY id BY NAME SELECT * FROM " + SOURCE + ";").errorClass());
    assertEquals("REPLACE_USING_REPEATED_KEY", failsToRun(
        "CREATE STREAMING TABLE t FLOW REPLACE USING (v, V) SEQUENCE BY id BY NAME SELECT * FROM " + SOURCE + ";").errorClass());
    SluiceException missingKey = failsToRun(
        "CREATE STREAMING TABLE t FLOW REPLACE USING (nope) SEQUENCE BY id BY NAME SELECT * FROM " + SOURCE + ";");
    assertEquals("REPLACE_USING_KEY_NOT_FOUND", missingKey.errorClass());
    assertTrue(missingKey.getMessage().contains("'nope'"), missingKey.getMessage());
    assertEquals("REPLACE_USING_SEQUENCE_NOT_FOUND", failsToRun(
        "CREATE STREAMING TABLE t FLOW REPLACE USING (v) SEQUENCE BY nope BY NAME SELECT * FROM " + SOURCE + ";").errorClass());
    assertEquals("REPLACE_USING_KEY_NOT_ORDERABLE", failsToRun(
        "CREATE STREAMING TABLE t FLOW REPLACE USING (m) SEQUENCE BY id BY NAME SELECT * FROM " + SOURCE + ";").errorClass());
    assertEquals("REPLACE_USING_WITHOUT_SEQUENCE", failsToRun(
        "CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (v) SELECT * FROM " + SOURCE + ";")
        .errorClass());
    assertEquals("REPLACE_USING_SOURCE_NOT_STREAMING", failsToRun("""
        CREATE MATERIALIZED VIEW batch AS SELECT 1 AS id, 'x' AS v;
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (v) SEQUENCE BY id SELECT * FROM batch;
        """).errorClass());
    SluiceException notAlone = failsToRun("""
        CREATE STREAMING TABLE t FLOW REPLACE USING (v) SEQUENCE BY id BY NAME SELECT * FROM %s;
        CREATE FLOW other AS INSERT INTO t BY NAME SELECT * FROM %s;
        """.formatted(SOURCE, SOURCE));
    assertEquals("REPLACE_USING_NOT_ALONE", notAlone.errorClass());
    assertTrue(notAlone.getMessage().contains("'other'"), notAlone.getMessage());
    assertEquals("FLOW_TARGET_NOT_DEFINED", failsToRun(
        "CREATE FLOW f AS INSERT INTO nowhere BY NAME REPLACE USING (v) SEQUENCE BY id SELECT * FROM " + SOURCE + ";")
        .errorClass());
    assertEquals("BY_NAME_REQUIRED", failsToRun(
        "CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t REPLACE USING (v) SEQUENCE BY id SELECT * FROM " + SOURCE + ";")
        .errorClass());
  }
}
