package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.TestPipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Definitions that cannot run, given to {@code sluice run} on the shared session (SEMANTICS
 * §1.4): exit 1, one line on stderr naming the file and line and what is wrong, no stack
 * trace without {@code --verbose}, and nothing created. Each file also defines a valid table,
 * {@code good}, that a careless engine would create before noticing the error. The same path
 * as a separate process is covered once in {@code BadInputE2E}.
 */
class BadDefinitionsTest {
  static final String GOOD = "CREATE STREAMING TABLE good AS SELECT * FROM STREAM read_files('landing', "
      + "format => 'json', schema => 'id BIGINT, v STRING');";

  @TempDir Path dir;

  private TestPipeline pipeline(String sql) {
    return new TestPipeline(dir).write("landing/a.json", "{\"id\": 1, \"v\": \"a\"}\n{\"id\": 2, \"v\": \"b\"}\n")
        .write("transformations/t.sql", sql);
  }

  /** Runs the pipeline with {@code options}; expects a clean refusal matching every pattern, and nothing written. */
  private CommandResult refused(TestPipeline pipeline, List<String> patterns, String... options) {
    List<String> args = new ArrayList<>(List.of("run"));
    args.addAll(List.of(options));
    CommandResult outcome = InProcessSluice.IN_PROCESS.failsCleanly(dir, args.toArray(String[]::new));
    assertEquals(1, outcome.exit(), () -> "exit 1: " + outcome);
    String line = outcome.errorLines().get(0);
    for (String pattern : patterns) {
      assertTrue(Pattern.compile(pattern).matcher(line).find(), () -> "the message matches /" + pattern + "/: " + outcome);
    }
    SparkSession spark = SharedSpark.session();
    assertTrue(!spark.catalog().databaseExists(pipeline.database())
        || spark.sql("SHOW TABLES IN " + pipeline.database()).isEmpty(), "no table in the pipeline's database");
    assertFalse(Files.exists(dir.resolve(".sluice/checkpoints")), "no flow started");
    return outcome;
  }

  @Test
  void malformedPipelineStatement() {
    refused(pipeline(GOOD + "\nCREATE STREAMING TABEL other AS SELECT id FROM STREAM(good);\n"),
        List.of("t\\.sql:2\\b", "TABEL"));
  }

  @Test
  void unknownTableInAQuery() {
    refused(pipeline(GOOD + "\nCREATE MATERIALIZED VIEW m AS SELECT id FROM no_such_table;\n"),
        List.of("t\\.sql:2\\b", "no_such_table"));
  }

  @Test
  void cycleBetweenTwoTables() {
    refused(pipeline(GOOD + "\nCREATE MATERIALIZED VIEW a AS SELECT id FROM b;\nCREATE MATERIALIZED VIEW b AS SELECT id FROM a;\n"),
        List.of("t\\.sql:[23]\\b", "(?i)cycl", "\\ba\\b", "\\bb\\b"));
  }

  @Test
  void flowIntoAnUndefinedTarget() {
    refused(pipeline(GOOD + "\nCREATE FLOW f AS INSERT INTO missing BY NAME SELECT * FROM STREAM(good);\n"),
        List.of("t\\.sql:2\\b", "missing"));
  }

  @Test
  void readFilesOnAMissingFolder() {
    refused(pipeline(GOOD + "\nCREATE STREAMING TABLE other AS SELECT * FROM STREAM read_files('nowhere', format => 'json', "
        + "schema => 'id BIGINT');\n"), List.of("t\\.sql:2\\b", "nowhere"));
  }

  @Test
  void triggerIntervalThatIsNoDuration() {
    refused(pipeline(GOOD + "\nCREATE STREAMING TABLE other TBLPROPERTIES ('pipelines.trigger.interval' = 'fast')"
            + " AS SELECT * FROM STREAM(good);\n"),
        List.of("t\\.sql:2\\b", "pipelines.trigger.interval of '.*other' is 'fast'", "10 seconds"), "--continuous");
  }

  @Test
  void continuousFullRefreshOfATableOthersStreamFrom() {
    refused(pipeline(GOOD + "\nCREATE STREAMING TABLE other AS SELECT * FROM STREAM(good);\n"),
        List.of("--full-refresh good,other", "FULL_REFRESH_ORPHANS_STREAM"), "--continuous", "--full-refresh", "good");
  }

  @Test
  void fullRefreshOfAnUnknownTable() {
    refused(pipeline(GOOD), List.of("nope"), "--full-refresh", "nope");
  }

  @Test
  void expectationThatDoesNotParse() {
    refused(pipeline("CREATE STREAMING TABLE good (\n  CONSTRAINT positive EXPECT (id >) ON VIOLATION DROP ROW\n)\n"
        + "AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id BIGINT, v STRING');\n"),
        List.of("t\\.sql:[12]\\b", "positive"));
  }

  @Test
  void expectationOnAnUnknownColumn() {
    refused(pipeline("CREATE STREAMING TABLE good (\n  CONSTRAINT has_price EXPECT (price > 0)\n)\n"
        + "AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id BIGINT, v STRING');\n"),
        List.of("t\\.sql:[12]\\b", "has_price", "price"));
  }

  @Test
  void twoExpectationsWithOneName() {
    refused(pipeline("CREATE STREAMING TABLE good (\n  CONSTRAINT valid EXPECT (id > 0),\n"
        + "  CONSTRAINT valid EXPECT (v IS NOT NULL)\n)\n"
        + "AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id BIGINT, v STRING');\n"),
        List.of("t\\.sql:[123]\\b", "valid"));
  }
}
