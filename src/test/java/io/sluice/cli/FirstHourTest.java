package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.PipelineLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user meets in the first hour (issue 11), through the command line in the test's
 * JVM: help, usage errors, unquoted SQL, what a run prints, spec and syntax errors, the lock.
 */
class FirstHourTest {
  @TempDir Path dir;

  private TestPipeline pipeline(String sql) {
    return new TestPipeline(dir).write("landing/a.json", "{\"id\": 1, \"amount\": 5}\n{\"id\": 2, \"amount\": -1}\n{\"id\": 3, \"amount\": 7}\n")
        .write("transformations/t.sql", sql);
  }

  @Test
  void everyCommandAnswersHelpWithoutCheckingItsArguments() {
    for (String command : List.of("init", "run", "dry-run", "query", "events", "graph", "report")) {
      CommandResult help = IN_PROCESS.execute(command, "--help");
      assertEquals(0, help.exit(), help::toString);
      assertTrue(help.stdout().contains("Usage: sluice " + command), help::toString);
      assertTrue(help.stdout().contains("--help"), help::toString);
      assertEquals("", help.stderr(), help::toString);
      assertEquals("sluice 0.1.0\n", IN_PROCESS.execute(command, "--version").stdout());
    }
  }

  @Test
  void usageErrorsExitTwoWithOneLineAndAPointerToHelp() {
    CommandResult none = IN_PROCESS.execute();
    assertEquals(2, none.exit(), none::toString);
    assertEquals(1, none.errorLines().size(), none::toString);
    assertTrue(none.stderr().startsWith("error: name a command: init, run, dry-run, query, events, history, maintain, graph, report"), none::toString);

    CommandResult unknown = IN_PROCESS.execute("run", "--nope");
    assertEquals(2, unknown.exit(), unknown::toString);
    assertEquals(List.of("error: Unknown option: '--nope' (see 'sluice run --help')"), unknown.errorLines());

    CommandResult missing = IN_PROCESS.execute("init");
    assertEquals(2, missing.exit(), missing::toString);
    assertEquals(1, missing.errorLines().size(), missing::toString);
    assertTrue(missing.stderr().contains("DIR") && missing.stderr().contains("'sluice init --help'"), missing::toString);
  }

  @Test
  void unquotedSqlIsTheWordsAfterTheFolder() {
    pipeline("CREATE MATERIALIZED VIEW m AS SELECT 1 AS one;");
    CommandResult words = IN_PROCESS.ok(dir, "query", "--format", "csv", "SELECT", "1", "AS", "x,", "'a", "b'", "AS", "y");
    assertEquals("x,y\n1,a b\n", words.stdout());

    CommandResult onlyFolder = IN_PROCESS.run(dir, "query");
    assertEquals(2, onlyFolder.exit(), onlyFolder::toString);
    assertTrue(onlyFolder.stderr().contains("give the SQL statement after the folder"), onlyFolder::toString);

    CommandResult noFolder = IN_PROCESS.execute("query", dir.resolve("nowhere") + "/", "SELECT", "1");
    assertEquals(2, noFolder.exit(), noFolder::toString);
    assertTrue(noFolder.stderr().contains("no such pipeline folder: " + dir.resolve("nowhere")), noFolder::toString);
  }

  @Test
  void aRunPrintsEachFlowAsItGoesAndWarnOnlyExpectationCounts() {
    String table = "orders_with_a_rather_long_descriptive_name_for_reports";
    pipeline("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, amount INT');
        CREATE STREAMING TABLE %s (CONSTRAINT positive_amount EXPECT (amount > 0))
          AS SELECT * FROM STREAM(raw);
        CREATE FLOW a_flow_with_a_long_name_too AS INSERT INTO %s BY NAME SELECT * FROM STREAM(raw);
        """.formatted(table, table));
    CommandResult run = IN_PROCESS.ok(dir, "run", "--progress-every", "0.1");
    List<String> lines = run.stdout().lines().toList();
    assertTrue(lines.stream().anyMatch(l -> l.matches("\\s+raw\\s+RUNNING")), run::toString);
    assertTrue(lines.stream().anyMatch(l -> l.matches("\\s+raw\\s+COMPLETED")), run::toString);
    assertTrue(lines.stream().anyMatch(l -> l.matches("\\s+\\S+\\s+RUNNING for \\d+ s: [\\d,]+ rows read, [\\d,]+ written so far")),
        () -> "a flow running longer than 0.1 s says what it did so far: " + run);

    int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("dataset ")).findFirst().orElseThrow());
    int typeColumn = lines.get(header).indexOf(" type ") + 1;
    List<String> rows = lines.subList(header + 1, lines.size()).stream().filter(l -> !l.startsWith(" ")).toList();
    assertEquals(3, rows.size(), run::toString);
    for (String row : rows) {
      assertEquals("streaming table ", row.substring(typeColumn, typeColumn + "streaming table ".length()),
          () -> "the type column lines up under its header:\n" + run.stdout());
    }
    assertEquals(2, lines.stream().filter(l -> l.equals("    rows failing expectations: positive_amount (warn) 1")).count(),
        () -> "each flow into the table reports its row that failed the warn-only expectation: " + run);

    CommandResult events = IN_PROCESS.ok(dir, "events");
    assertTrue(events.stdout().lines().anyMatch(l -> l.equals("    expectations: positive_amount 2 passed 1 failed")), events::toString);
  }

  @Test
  void aMalformedSpecIsOneLineAtItsLineAndColumn() throws Exception {
    Files.writeString(dir.resolve("spark-pipeline.yml"), "name: x\nstorage: .sluice\nlibraries:\n  - glob: {include: a\n  - class: B\n");
    CommandResult run = IN_PROCESS.failsCleanly(dir, "run");
    assertTrue(run.stderr().matches("spark-pipeline\\.yml:\\d+:\\d+: not valid YAML: [^\\n]+ \\[SPEC_SYNTAX_ERROR\\]\\s*"), run::toString);
  }

  @Test
  void globExcludeLeavesFilesOut() {
    pipeline("CREATE MATERIALIZED VIEW m AS SELECT 1 AS one;")
        .write("transformations/scratch/broken.sql", "THIS IS NOT SQL;")
        .libraries("- glob: {include: transformations/**/*.sql, exclude: transformations/scratch/**}");
    IN_PROCESS.ok(dir, "dry-run");

    new TestPipeline(dir).libraries("- glob: {include: transformations/**/*.sql, exclud: transformations/scratch/**}");
    CommandResult typo = IN_PROCESS.failsCleanly(dir, "dry-run");
    assertTrue(typo.stderr().contains("'exclud'") && typo.stderr().contains("include, exclude"), typo::toString);
  }

  @Test
  void aSyntaxErrorIsReportedWhereItIs() {
    pipeline("""
        -- a comment line
        CREATE MATERIALIZED VIEW m AS
        SELECT id,
               amount
        FROM raw WHERE amount >> > 0;
        """);
    CommandResult run = IN_PROCESS.failsCleanly(dir, "dry-run");
    assertTrue(run.stderr().startsWith("transformations/t.sql:5:26: "), () -> "the line of the error, not of the statement: " + run);

    pipeline("CREATE MATERIALIZED VIEW m AS SELECT 1;\n\nCREATE MATERIALIZED\n  VEW v AS SELECT 1;\n");
    CommandResult ours = IN_PROCESS.failsCleanly(dir, "dry-run");
    assertTrue(ours.stderr().startsWith("transformations/t.sql:4:3: "), () -> "an error in a pipeline statement too: " + ours);
  }

  @Test
  void aLockNamesItsHolderAndStorageThatCannotBeWrittenSaysWhy() throws Exception {
    pipeline("CREATE MATERIALIZED VIEW m AS SELECT 1 AS one;");
    try (PipelineLock held = PipelineLock.acquire(dir.resolve(".sluice"), "test", "sluice query")) {
      CommandResult run = IN_PROCESS.failsCleanly(dir, "run");
      assertTrue(run.stderr().contains("pipeline 'test' is in use by sluice query (pid " + ProcessHandle.current().pid()), run::toString);
    }
    Path other = dir.resolve("other");
    new TestPipeline(other).write("transformations/t.sql", "CREATE MATERIALIZED VIEW m AS SELECT 1 AS one;")
        .write(".sluice", "a file where the storage folder should be");
    CommandResult blocked = IN_PROCESS.failsCleanly(other, "run");
    assertTrue(blocked.stderr().contains("cannot write its storage " + other.resolve(".sluice")) && blocked.stderr().contains("[STORAGE_NOT_WRITABLE]"),
        blocked::toString);
  }

  @Test
  void aMissingSampleTableSaysWhereSamplesComeFrom() {
    pipeline("CREATE MATERIALIZED VIEW m AS SELECT * FROM wanderbricks.no_such_sample_table;");
    CommandResult run = IN_PROCESS.failsCleanly(dir, "run");
    assertTrue(run.stderr().contains("[TABLE_OR_VIEW_NOT_FOUND]") && run.stderr().contains("sluice samples " + dir), run::toString);
    assertFalse(Files.exists(dir.resolve(".sluice/checkpoints")));
  }

  @Test
  void fieldsThatDoNotParseAreRescuedAndCounted() {
    new TestPipeline(dir)
        .write("landing/a.json", String.join("\n",
            "{\"id\": 1, \"amount\": 5, \"price\": 1.50, \"at\": \"2026-01-02T03:04:05Z\"}",
            "{\"id\": 2, \"amount\": \"five\", \"price\": 2.00, \"at\": \"2026-01-02T03:04:05Z\"}",
            "{\"id\": 3, \"amount\": 7, \"price\": \"cheap\", \"at\": \"yesterday\"}",
            "{\"id\": 4, \"amount\": 8, \"pri") + "\n")
        .write("landing/b.csv", "id,amount\n10,1\n11,x\n")
        .write("transformations/t.sql", """
            CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing/*.json', format => 'json',
              schema => 'id INT, amount INT, price DECIMAL(5,2), at TIMESTAMP');
            CREATE STREAMING TABLE clean (CONSTRAINT parsed EXPECT (_rescued_data IS NULL) ON VIOLATION DROP ROW)
              AS SELECT * FROM STREAM(raw);
            CREATE MATERIALIZED VIEW csv AS SELECT * FROM read_files('landing/*.csv', format => 'csv', header => 'true',
              schema => 'id INT, amount INT');
            CREATE MATERIALIZED VIEW csv_plain AS SELECT * FROM read_files('landing/*.csv', format => 'csv', header => 'true',
              schema => 'id INT, amount INT', rescuedDataColumn => '');
            """);
    CommandResult run = IN_PROCESS.ok(dir, "run");
    // Every flow whose input has the column counts its rows: raw, clean (which drops them), csv.
    assertEquals(List.of(3L, 3L, 1L), run.stdout().lines().filter(l -> l.startsWith("    rows with rescued data (input that did not parse, in _rescued_data): "))
        .map(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toList(), run::toString);

    List<String> raw = IN_PROCESS.query(dir, "SELECT id, amount, price, at IS NULL AS no_time, "
        + "to_json(map_filter(from_json(_rescued_data, 'map<string,string>'), (k, v) -> k != '_file_path')) AS rescued, "
        + "from_json(_rescued_data, 'map<string,string>')['_file_path'] LIKE 'file:%/landing/a.json' AS has_file "
        + "FROM raw ORDER BY id NULLS LAST").stream()
        .map(r -> r.get("id").asText() + "|" + r.get("amount").asText() + "|" + r.get("price").asText() + "|"
            + r.get("no_time").asText() + "|" + r.get("rescued").asText() + "|" + r.get("has_file").asText())
        .toList();
    assertEquals(List.of(
        "1|5|1.5|false|null|null",
        "2|null|2|false|{\"amount\":\"five\"}|true",
        "3|7|null|true|{\"price\":\"cheap\",\"at\":\"yesterday\"}|true",
        "null|null|null|true|{\"_corrupt_record\":\"{\\\"id\\\": 4, \\\"amount\\\": 8, \\\"pri\"}|true"), raw);
    assertEquals(List.of("1"), IN_PROCESS.query(dir, "SELECT id FROM clean").stream().map(r -> r.get("id").asText()).toList(),
        "an expectation on _rescued_data keeps what did not parse out of the silver table");
    assertEquals(List.of("10|1|null", "11|null|{\"_corrupt_record\":\"11,x\"}"),
        IN_PROCESS.query(dir, "SELECT id, amount, map_filter(from_json(_rescued_data, 'map<string,string>'), (k, v) -> k != '_file_path') AS r FROM csv ORDER BY id")
            .stream().map(r -> r.get("id").asText() + "|" + r.get("amount").asText() + "|" + (r.get("r").isNull() ? "null" : r.get("r").toString())).toList());
    assertEquals(List.of("id", "amount"), IN_PROCESS.query(dir, "SELECT * FROM csv_plain LIMIT 1").get(0).properties().stream()
        .map(java.util.Map.Entry::getKey).toList(), "rescuedDataColumn => '' reads without it");

    CommandResult events = IN_PROCESS.ok(dir, "events");
    assertTrue(events.stdout().lines().anyMatch(l -> l.equals("    rows with rescued data: 3")), events::toString);
  }
}
