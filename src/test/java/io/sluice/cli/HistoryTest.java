package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's history through the CLI (SEMANTICS §11.2): every commit traced to the update, flow
 * and batch that made it; time travel and {@code table_changes} through {@code sluice query}.
 */
class HistoryTest {
  private static final Pattern UPDATE = Pattern.compile("update ([0-9a-f]{8})");
  @TempDir Path dir;

  @Test
  void everyCommitNamesItsUpdateFlowAndBatch() {
    PipelineFolder pipeline = PipelineFolder.create(dir, "history")
        .sql("raw.sql", """
            CREATE STREAMING TABLE raw TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')
            AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
            CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM raw;
            """)
        .json("landing/a.json", "{\"id\": 1}", "{\"id\": 2}")
        .inItsOwnDatabase();
    String first = updateOf(IN_PROCESS.ok(dir, "run"));
    pipeline.json("landing/b.json", "{\"id\": 3}");
    String second = updateOf(IN_PROCESS.ok(dir, "run"));
    IN_PROCESS.ok(dir, "query", "DELETE FROM raw WHERE id = 1");

    List<String> lines = IN_PROCESS.ok(dir, "history", "raw").stdout().lines().toList();
    assertTrue(lines.get(0).startsWith("history of raw"), lines.toString());
    assertTrue(lines.get(2).matches("3 +\\S+ \\S+ +DELETE +- +- +- +1 deleted"), lines.get(2));
    assertTrue(lines.get(3).matches("2 +\\S+ \\S+ +WRITE +" + second + "\\S* +raw +1 +1 written"), lines.get(3));
    assertTrue(lines.get(4).matches("1 +\\S+ \\S+ +WRITE +" + first + "\\S* +raw +0 +2 written"), lines.get(4));
    assertTrue(lines.get(5).matches("0 +\\S+ \\S+ +CREATE TABLE +- +- +- *"), lines.get(5));

    List<JsonNode> history = IN_PROCESS.query(dir, "DESCRIBE HISTORY raw");
    String versionOne = history.stream().filter(h -> h.get("version").asLong() == 1).findFirst().orElseThrow()
        .get("timestamp").asText();
    assertEquals("2", IN_PROCESS.query(dir, "SELECT count(*) AS n FROM raw VERSION AS OF 1").get(0).get("n").asText());
    assertEquals("2", IN_PROCESS.query(dir, "SELECT count(*) AS n FROM raw TIMESTAMP AS OF '" + versionOne + "'")
        .get(0).get("n").asText());
    assertEquals(List.of("1 insert 1", "2 insert 1", "3 insert 2", "1 delete 3"),
        IN_PROCESS.query(dir, "SELECT id, _change_type, _commit_version FROM table_changes('raw', 1) ORDER BY 3, 2 DESC, 1")
            .stream().map(r -> r.get("id").asText() + " " + r.get("_change_type").asText() + " " + r.get("_commit_version").asText())
            .toList(), "table_changes reads the change feed the table's definition asks for");
    String noFeed = IN_PROCESS.failsCleanly(dir, "query", "SELECT * FROM table_changes('total', 1)").stderr();
    assertTrue(noFeed.contains("DELTA_MISSING_CHANGE_DATA"), "a table whose definition does not ask for a feed has none, as in Delta: " + noFeed);

    CommandResult unknown = IN_PROCESS.failsCleanly(dir, "history", "nope");
    assertTrue(unknown.stderr().contains("history names 'nope', which is not a table of this pipeline; its tables are raw, total"),
        unknown.stderr());
  }

  private static String updateOf(CommandResult run) {
    Matcher update = UPDATE.matcher(run.stdout());
    assertTrue(update.find(), run.stdout());
    return update.group(1);
  }
}
