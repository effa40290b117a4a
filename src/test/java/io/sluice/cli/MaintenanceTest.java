package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table maintenance (SEMANTICS §11.1): {@code sluice maintain} compacts and vacuums without
 * changing a row, streams and time travel go on after it, updates maintain tables a day after
 * their last maintenance unless told not to, and bad input is refused.
 */
class MaintenanceTest {
  @TempDir Path dir;

  private PipelineFolder pipeline(String properties) {
    return pipeline(properties, "");
  }

  private PipelineFolder pipeline(String properties, String more) {
    PipelineFolder pipeline = PipelineFolder.create(dir, "maintained").sql("t.sql", """
        CREATE STREAMING TABLE raw %s
        AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, kind STRING', maxFilesPerTrigger => 1);
        CREATE STREAMING TABLE evens TBLPROPERTIES ('pipelines.autoOptimize.managed' = 'false')
        AS SELECT * FROM STREAM(raw) WHERE id %% 2 = 0;
        """.formatted(properties) + more);
    for (int i = 1; i <= 4; i++) {
      pipeline.json("landing/" + i + ".json", "{\"id\": " + i + ", \"kind\": \"k" + (i % 2) + "\"}");
    }
    return pipeline.inItsOwnDatabase();
  }

  @Test
  void maintenanceKeepsRowsStreamsAndTimeTravel() {
    PipelineFolder pipeline = pipeline("TBLPROPERTIES ('pipelines.autoOptimize.zOrderCols' = 'kind')",
        "CREATE MATERIALIZED VIEW kinds AS SELECT kind, count(*) AS n FROM raw GROUP BY kind;");
    IN_PROCESS.ok(dir, "run");
    long filesBefore = files("raw");

    CommandResult maintained = IN_PROCESS.ok(dir, "maintain");
    assertTrue(maintained.stdout().contains("raw maintained: files 4 -> 1"), maintained.stdout());
    assertTrue(maintained.stdout().contains("evens maintained"), "sluice maintain takes every table: " + maintained.stdout());
    assertTrue(maintained.stdout().contains("event log maintained"), maintained.stdout());
    assertTrue(maintained.stdout().contains("kinds (view state groups) maintained"), "the view's group state too: "
        + maintained.stdout());
    assertEquals(4, filesBefore);
    assertEquals(1, files("raw"));
    assertEquals(List.of(), rows("(SELECT * FROM raw VERSION AS OF 4) EXCEPT ALL (SELECT * FROM raw)"), "no row changed");
    assertEquals(List.of(), rows("(SELECT * FROM raw) EXCEPT ALL (SELECT * FROM raw VERSION AS OF 4)"), "no row added");
    assertEquals(2, rows("SELECT * FROM raw VERSION AS OF 2").size(), "time travel within the retention");
    List<JsonNode> events = IN_PROCESS.query(dir, "SELECT details FROM event_log WHERE event_type = 'maintenance' "
        + "AND origin.dataset_name = 'raw'");
    assertTrue(events.get(0).get("details").asText().contains("\"z_order\":\"ZORDER BY (`kind`)\""), events.toString());

    pipeline.json("landing/6.json", "{\"id\": 6, \"kind\": \"k0\"}");
    IN_PROCESS.ok(dir, "run");
    assertEquals(List.of("2", "4", "6"), rows("SELECT id FROM evens ORDER BY id").stream().map(r -> r.get("id").asText()).toList(),
        "a stream reading the maintained table goes on");
  }

  @Test
  void anUpdateMaintainsATableADayAfterItsLastMaintenanceUnlessToldNot() throws IOException {
    pipeline("");
    IN_PROCESS.ok(dir, "run");
    assertEquals(List.of(), rows("SELECT * FROM event_log WHERE event_type = 'maintenance'"), "not on a table's first day");
    try (Stream<Path> marks = Files.list(dir.resolve(".sluice/system/maintained"))) {
      for (Path mark : marks.toList()) {
        Files.writeString(mark, Instant.now().minus(25, ChronoUnit.HOURS).toString());
      }
    }
    IN_PROCESS.ok(dir, "run");
    List<String> maintained = rows("SELECT origin.dataset_name AS t FROM event_log WHERE event_type = 'maintenance'")
        .stream().map(r -> r.get("t").isNull() ? "event log" : r.get("t").asText()).toList();
    assertEquals(List.of("raw", "event log"), maintained, "evens has pipelines.autoOptimize.managed = false");
  }

  @Test
  void unknownTablesAndZOrderColumnsAreRefused() {
    pipeline("TBLPROPERTIES ('pipelines.autoOptimize.zOrderCols' = 'kind, nope')");
    CommandResult zOrder = IN_PROCESS.failsCleanly(dir, "run");
    assertTrue(zOrder.stderr().contains("pipelines.autoOptimize.zOrderCols of 'raw' names 'nope', which is not one of its columns")
        && zOrder.stderr().contains("[INVALID_TABLE_PROPERTY]"), zOrder.stderr());

    pipeline("");
    IN_PROCESS.ok(dir, "run");
    CommandResult unknown = IN_PROCESS.failsCleanly(dir, "maintain", "--tables", "raw,nope");
    assertTrue(unknown.stderr().contains("--tables names 'nope', which is not a table of this pipeline"), unknown.stderr());
  }

  private long files(String table) {
    return IN_PROCESS.query(dir, "DESCRIBE DETAIL " + table).get(0).get("numFiles").asLong();
  }

  private List<JsonNode> rows(String sql) {
    return IN_PROCESS.query(dir, sql);
  }
}
