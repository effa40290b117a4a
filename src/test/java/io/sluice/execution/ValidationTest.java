package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
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
  void aColumnWithSluicesReservedPrefix() {
    SluiceException e = failsToRun("CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\n"
        + "CREATE MATERIALIZED VIEW b AS SELECT x AS __Sluice_Seq FROM a;");
    assertEquals("RESERVED_COLUMN_NAME", e.errorClass());
    assertEquals(2, e.origin().line());
    assertTrue(e.getMessage().contains("'__Sluice_Seq'") && e.getMessage().contains("rename it"), e.getMessage());
  }

  /** Delta stores a name with a space only in a table that maps names: said at the definition, never Delta's message. */
  @Test
  void aColumnNameWithASpaceNeedsColumnMapping() {
    SluiceException plain = failsToRun("CREATE MATERIALIZED VIEW a AS SELECT 1 AS `Unit Price`;");
    assertEquals("COLUMN_NAME_NEEDS_MAPPING", plain.errorClass());
    assertEquals(1, plain.origin().line());
    assertTrue(plain.getMessage().contains("column 'Unit Price' into '") && plain.getMessage()
        .contains("give 'a' TBLPROPERTIES ('delta.columnMapping.mode' = 'name')"), plain.getMessage());

    SluiceException cdc = failsToRun("""
        CREATE TEMPORARY VIEW src AS SELECT id, v AS `the v` FROM STREAM read_files('landing', format => 'json',
          schema => 'id INT, v STRING');
        CREATE STREAMING TABLE t TBLPROPERTIES ('delta.columnMapping.mode' = 'name');
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY id;
        """);
    assertEquals("COLUMN_NAME_NEEDS_MAPPING", cdc.errorClass());
    assertTrue(cdc.getMessage().contains("'the v'") && cdc.getMessage().contains("rename it in the flow's query"),
        cdc.getMessage());

    TestPipeline mapped = new TestPipeline(dir.resolve("mapped")).sql("""
        CREATE MATERIALIZED VIEW a TBLPROPERTIES ('delta.columnMapping.mode' = 'name') AS SELECT 1 AS `Unit Price`;
        """);
    assertTrue(mapped.run().succeeded());
    assertEquals(List.of("[1]"), mapped.rows("SELECT `Unit Price` FROM a"));
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
  void keysMatchColumnsAsSparksAnalyserDoes() {
    assertEquals("REPLACE_USING_REPEATED_KEY", failsToRun(
        "CREATE STREAMING TABLE t FLOW REPLACE USING (v, V) SEQUENCE BY id BY NAME SELECT * FROM " + SOURCE + ";").errorClass(),
        "by default, in any case");
    TestPipeline p = new TestPipeline(dir);
    p.spark().conf().set("spark.sql.caseSensitive", "true");
    try {
      SluiceException e = failsToRun("CREATE STREAMING TABLE t FLOW REPLACE USING (ID) SEQUENCE BY id BY NAME SELECT * FROM "
          + SOURCE + ";");
      assertEquals("REPLACE_USING_KEY_NOT_FOUND", e.errorClass(), "with spark.sql.caseSensitive, in the same case only");
      e = autoCdcFails("AUTO_CDC_KEY_NOT_FOUND", 3, """
          CREATE STREAMING TABLE t;
          CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (ID) SEQUENCE BY seq;
          """);
      assertTrue(e.getMessage().contains("'ID'"), e.getMessage());
    } finally {
      p.spark().conf().unset("spark.sql.caseSensitive");
    }
  }

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

  // ---------------------------------------------------------------- AUTO CDC (SEMANTICS §4)

  private static final String CDC_SOURCE = "CREATE STREAMING TABLE src AS SELECT * FROM STREAM read_files("
      + "'landing', format => 'json', schema => 'id INT, v STRING, seq INT, op STRING');\n";

  /** Fails the definitions after {@code CDC_SOURCE}, which start on line 2, and checks the user's line. */
  private SluiceException autoCdcFails(String errorClass, int line, String definitions) {
    SluiceException e = failsToRun(CDC_SOURCE + definitions);
    assertEquals(errorClass, e.errorClass(), e.userMessage());
    assertTrue(e.userMessage().startsWith("transformations/pipeline.sql:" + line + ": "), e.userMessage());
    return e;
  }

  @Test
  void autoCdcUnknownKey() {
    SluiceException e = autoCdcFails("AUTO_CDC_KEY_NOT_FOUND", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src)
          KEYS (id, nope) SEQUENCE BY seq;
        """);
    assertTrue(e.getMessage().contains("'nope'") && e.getMessage().contains("id, v, seq, op"), e.getMessage());
  }

  @Test
  void autoCdcUnknownColumn() {
    SluiceException e = autoCdcFails("AUTO_CDC_COLUMN_NOT_FOUND", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (op, nope);
        """);
    assertTrue(e.getMessage().contains("COLUMNS") && e.getMessage().contains("'nope'"), e.getMessage());
  }

  @Test
  void trackHistoryExceptOfAColumnTheColumnsLeftOutRunsWithAWarning() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\", \"seq\": 1, \"op\": \"U\"}\n")
        .sql(CDC_SOURCE + """
            CREATE STREAMING TABLE t;
            CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq
              COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (op);
            """);
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("[1,x,1,null]"), p.rows("SELECT id, v, __START_AT, __END_AT FROM t"));
    assertEquals(1, result.warnings().size(), result.warnings().toString());
    assertTrue(result.warnings().get(0).contains("TRACK HISTORY ON * EXCEPT (op) names 'op', which COLUMNS already"
        + " leaves out"), result.warnings().get(0));
    assertEquals(1, p.spark().read().format("delta").load(p.root().resolve(".sluice/system/event_log").toString())
        .where("level = 'WARN' AND message LIKE '%TRACK HISTORY ON%'").count(), "the warning is in the event log");
  }

  @Test
  void trackHistoryExceptOfAColumnTheSourceLacksFails() {
    SluiceException e = autoCdcFails("AUTO_CDC_COLUMN_NOT_FOUND", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq
          COLUMNS * EXCEPT (op) STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (nope);
        """);
    assertTrue(e.getMessage().contains("TRACK HISTORY ON") && e.getMessage().contains("'nope'"), e.getMessage());
  }

  @Test
  void autoCdcKeyLeftOutOfTheColumns() {
    SluiceException e = autoCdcFails("AUTO_CDC_KEY_NOT_SELECTED", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (id);
        """);
    assertTrue(e.getMessage().contains("'id'"), e.getMessage());
  }

  @Test
  void autoCdcMapColumnCannotBeCompared() {
    SluiceException e = autoCdcFails("AUTO_CDC_COLUMN_NOT_COMPARABLE", 4, """
        CREATE TEMPORARY VIEW with_map AS SELECT *, map('k', v) AS attrs FROM STREAM(src);
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(with_map) KEYS (id) SEQUENCE BY seq;
        """);
    assertTrue(e.getMessage().contains("'attrs'") && e.getMessage().contains("map<string,string>"), e.getMessage());
  }

  @Test
  void autoCdcUnknownSequence() {
    SluiceException e = autoCdcFails("AUTO_CDC_SEQUENCE_NOT_FOUND", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY STRUCT(seq, nope);
        """);
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
  }

  @Test
  void autoCdcDeleteConditionThatIsNotBoolean() {
    SluiceException e = autoCdcFails("AUTO_CDC_INVALID_CONDITION", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) APPLY AS DELETE WHEN upper(op) SEQUENCE BY seq;
        """);
    assertTrue(e.getMessage().contains("APPLY AS DELETE WHEN upper(op)") && e.getMessage().contains("string"),
        e.getMessage());
  }

  @Test
  void autoCdcScdType2DeclaredSchemaNeedsTheVersionColumns() {
    SluiceException missing = autoCdcFails("AUTO_CDC_SCD2_SCHEMA", 2, """
        CREATE STREAMING TABLE t (id INT, v STRING);
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq COLUMNS id, v STORED AS SCD TYPE 2;
        """);
    assertTrue(missing.getMessage().contains("__START_AT INT"), missing.getMessage());
    SluiceException wrongType = autoCdcFails("AUTO_CDC_SCD2_SCHEMA", 3, """

        CREATE STREAMING TABLE t (id INT, v STRING, __START_AT STRING, __END_AT STRING);
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq COLUMNS id, v STORED AS SCD TYPE 2;
        """);
    assertTrue(wrongType.getMessage().contains("__START_AT INT") && wrongType.getMessage().contains("not STRING"),
        wrongType.getMessage());
  }

  @Test
  void autoCdcTargetWrittenByAnAppendFlowToo() {
    SluiceException e = autoCdcFails("AUTO_CDC_TARGET_SHARED", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq;
        CREATE FLOW g AS INSERT INTO t BY NAME SELECT * FROM STREAM(src);
        """);
    assertTrue(e.getMessage().contains("'g'") && e.getMessage().contains("transformations/pipeline.sql:4"),
        e.getMessage());
  }

  @Test
  void autoCdcSourceReadWithoutStream() {
    SluiceException e = autoCdcFails("AUTO_CDC_SOURCE_NOT_STREAMING", 3, """
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS AUTO CDC INTO t FROM src KEYS (id) SEQUENCE BY seq;
        """);
    assertTrue(e.getMessage().contains("STREAM") && e.getMessage().contains("ONCE"), e.getMessage());
  }

  @Test
  void autoCdcIntoAMaterializedView() {
    SluiceException e = autoCdcFails("AUTO_CDC_TARGET", 3, """
        CREATE MATERIALIZED VIEW t;
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq;
        """);
    assertTrue(e.getMessage().endsWith("needs a streaming table as its target; 't' is a materialized view"),
        e.getMessage());
  }

  @Test
  void autoCdcTombstoneThresholdThatIsNotANumber() {
    SluiceException e = autoCdcFails("INVALID_TABLE_PROPERTY", 2, """
        CREATE STREAMING TABLE t TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = 'abc');
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq;
        """);
    assertTrue(e.getMessage().contains("pipelines.cdc.tombstoneGCThresholdInSeconds") && e.getMessage().contains("'abc'"),
        e.getMessage());
  }

  @Test
  void autoCdcScdType2IntoADeclaredSchemaWithTheVersionColumns() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", """
            {"id": 1, "v": "a", "seq": 1, "op": "U"}
            {"id": 1, "v": "b", "seq": 2, "op": "U"}
            {"id": 2, "v": "c", "seq": 1, "op": "U"}
            {"id": 2, "seq": 3, "op": "D"}
            """)
        .sql(CDC_SOURCE + """
            CREATE STREAMING TABLE t (id INT NOT NULL, v STRING, __START_AT INT, __END_AT INT);
            CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) APPLY AS DELETE WHEN op = 'D'
              SEQUENCE BY seq COLUMNS * EXCEPT (seq, op, _rescued_data) STORED AS SCD TYPE 2;
            """);
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[1,a,1,2]", "[1,b,2,null]", "[2,c,1,3]"), p.rows("SELECT * FROM t"));
  }
}
