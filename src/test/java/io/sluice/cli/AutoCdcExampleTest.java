package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.Events;
import io.sluice.testsupport.ExampleTables;
import io.sluice.testsupport.JsonRows;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code examples/auto-cdc} as shipped, run with {@code sluice run} and read with {@code sluice query} (SEMANTICS §4). */
class AutoCdcExampleTest {
  static final Path EXAMPLE = Path.of("examples/auto-cdc").toAbsolutePath();

  @TempDir Path dir;

  /** The example, run as a user runs it: SCD 1, SCD 2, the change-feed reader, and the per-batch metrics (§4.7). */
  @Test
  void theUsersExampleGivesTheDocumentedTables() {
    PipelineFolder.copyOf(EXAMPLE, dir).inItsOwnDatabase();
    String dryRun = IN_PROCESS.ok(dir, "dry-run").stdout();
    assertTrue(dryRun.contains(" users_scd1 keeps a change data feed: streamed by users_changes"), dryRun);
    assertTrue(!dryRun.contains("users_scd2 keeps"), "nothing reads users_scd2's changes: " + dryRun);
    IN_PROCESS.ok(dir, "run");

    List<ExampleTables.Expected> documented = ExampleTables.of(Path.of(""), "auto-cdc");
    Map<String, String> queries = new LinkedHashMap<>(ExampleTables.queries(documented, null));
    queries.put("users_changes_all", "SELECT * FROM users_changes");
    queries.put("progress", "SELECT origin.flow_name AS flow, details FROM event_log "
        + "WHERE event_type = 'flow_progress' AND level = 'METRICS'");
    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, queries);

    // SCD 1: the latest row of each user, 123 deleted; SCD 2: every version, late updates
    // placed by sequence, the delete closing 123; the change feed replayed is SCD 1 again.
    ExampleTables.assertHolds(documented, t, "the example run embedded");
    assertEquals(List.of("userId", "name", "city"), JsonRows.fieldNames(t.get("users_scd1").get(0)),
        "SCD 1: the selected columns, no hidden ones");
    assertEquals(List.of("userId", "name", "city", "__START_AT", "__END_AT"), JsonRows.fieldNames(t.get("users_scd2").get(0)));

    // The downstream stream read users_scd1's change feed: every row it holds arrived as an
    // insert or an update post-image, and nothing of user 123 survives without a delete.
    List<JsonNode> changes = t.get("users_changes_all");
    assertTrue(!changes.isEmpty(), "users_changes read the change feed of users_scd1");
    for (JsonNode change : changes) {
      String type = change.get("_change_type").asText();
      assertTrue(List.of("insert", "update_postimage", "delete").contains(type), () -> "change type " + change);
      assertTrue(change.get("_commit_version").isNumber(), () -> "commit version " + change);
    }

    // Only the target a stream reads keeps a change feed: the other one's commits write no feed files.
    assertEquals("true", feed(dir, "users_scd1"));
    assertTrue(feed(dir, "users_scd2").contains("does not have property"), feed(dir, "users_scd2"));

    // §4.7: the batches' metrics, summed over the run, count every event as applied or ignored.
    Map<String, long[]> sums = new TreeMap<>();
    for (JsonNode event : t.get("progress")) {
      JsonNode details = Events.details(event);
      if (!details.has("num_upserted_rows")) {
        continue;
      }
      long[] s = sums.computeIfAbsent(event.get("flow").asText(), f -> new long[3]);
      s[0] += details.get("num_upserted_rows").asLong();
      s[1] += details.get("num_deleted_rows").asLong();
      s[2] += details.path("num_ignored_events").asLong();
      for (String field : List.of("num_deleted_rows", "num_ignored_events", "num_truncates",
          "target_rows_inserted", "target_rows_updated", "target_rows_deleted")) {
        assertTrue(details.has(field), () -> field + " in " + details);
      }
    }
    assertEquals(List.of("users_scd1_flow", "users_scd2_flow"), List.copyOf(sums.keySet()),
        () -> "flow_progress events with AUTO CDC metrics: " + t.get("progress"));
    for (Map.Entry<String, long[]> e : sums.entrySet()) {
      assertTrue(e.getValue()[0] > 0 && e.getValue()[1] > 0, e.getKey() + " reported upserts and deletes");
      assertEquals(8, e.getValue()[0] + e.getValue()[1] + e.getValue()[2], e.getKey() + ": 8 events in all");
    }
  }

  private static String feed(Path dir, String table) {
    return IN_PROCESS.query(dir, "SHOW TBLPROPERTIES " + table + " ('delta.enableChangeDataFeed')").get(0).get("value").asText();
  }
}
