package io.sluice.cli;

import static io.sluice.testsupport.JsonRows.rows;
import static io.sluice.testsupport.JsonRows.sorted;
import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.Events;
import io.sluice.testsupport.JsonRows;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The life of one pipeline over several updates, as a user drives it with {@code sluice}
 * commands (here in the test's JVM; SEMANTICS §1.5, §1.6, §7.2): landing JSON files -> STREAM read_files bronze streaming table -> cleaned
 * streaming table with expectations -> materialized view. The steps share the folder and
 * run in order; a step is skipped when an earlier one could not bring the pipeline to the
 * state it starts from.
 *
 * <p>The bronze table has {@code pipelines.reset.allowed = false}, the usual protection of
 * raw data whose source files may be gone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineLifecycleTest {
  @TempDir static Path dir;
  static PipelineFolder pipeline;
  static int reached;

  static final String RAW = "id|customer|amount|status|source_file";
  static final String CLEAN = "id|customer|amount|status";
  static final String REVENUE = "customer|orders|revenue";

  @BeforeAll
  static void writePipeline() {
    pipeline = PipelineFolder.create(dir, "shop").inItsOwnDatabase()
        .sql("bronze/orders_raw.sql", """
            -- Every order file that lands, once. Raw data is precious: never cleared.
            CREATE OR REFRESH STREAMING TABLE orders_raw
            TBLPROPERTIES ('pipelines.reset.allowed' = 'false')
            AS SELECT *, _metadata.file_name AS source_file
            FROM STREAM read_files('landing', format => 'json',
              schema => 'id BIGINT, customer STRING, amount DECIMAL(10,2), status STRING');
            """)
        .sql("silver/orders_clean.sql", """
            CREATE OR REFRESH STREAMING TABLE orders_clean (
              CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW,
              CONSTRAINT positive_amount EXPECT (amount > 0) ON VIOLATION DROP ROW,
              CONSTRAINT known_status EXPECT (status IN ('placed', 'shipped', 'cancelled'))
            )
            AS SELECT id, lower(trim(customer)) AS customer, amount, status
            FROM STREAM(orders_raw);
            """)
        .sql("gold/revenue.sql", """
            CREATE OR REFRESH MATERIALIZED VIEW revenue
            AS SELECT customer, count(*) AS orders, sum(amount) AS revenue
            FROM orders_clean
            WHERE status <> 'cancelled'
            GROUP BY customer;
            """)
        .json("landing/orders-01.json",
            "{\"id\": 1, \"customer\": \"Ada \", \"amount\": 120.50, \"status\": \"placed\"}",
            "{\"id\": 2, \"customer\": \"grace\", \"amount\": 35.00, \"status\": \"shipped\"}",
            "{\"id\": 3, \"customer\": \"Linus\", \"amount\": -5.00, \"status\": \"placed\"}",
            "{\"id\": null, \"customer\": \"ghost\", \"amount\": 10.00, \"status\": \"placed\"}")
        // Does not match the declared schema: wrong types, unknown fields. Spark's permissive
        // reader lands such rows with NULLs; the run must not crash.
        .json("landing/orders-02.json",
            "{\"id\": 4, \"customer\": \"ada\", \"amount\": \"lots\", \"status\": \"shipped\"}",
            "{\"id\": \"five\", \"customer\": \"Grace\", \"amount\": 15.25, \"status\": \"cancelled\"}",
            "{\"id\": 6, \"customer\": \"linus\", \"amount\": 42.00, \"status\": \"returned\"}",
            "{\"order_no\": 7, \"buyer\": \"zed\"}");
  }

  /** Rows after the first run of orders-01 and orders-02. */
  static final List<String> RAW_1 = sorted(
      "1|Ada |120.5|placed|orders-01.json",
      "2|grace|35|shipped|orders-01.json",
      "3|Linus|-5|placed|orders-01.json",
      "null|ghost|10|placed|orders-01.json",
      "4|ada|null|shipped|orders-02.json",
      "null|Grace|15.25|cancelled|orders-02.json",
      "6|linus|42|returned|orders-02.json",
      "null|null|null|null|orders-02.json");
  static final List<String> CLEAN_1 = sorted("1|ada|120.5|placed", "2|grace|35|shipped", "6|linus|42|returned");

  static final List<String> RAW_3_FILE = sorted(
      "7|ADA|9.5|placed|orders-03.json",
      "8|Hopper|60|cancelled|orders-03.json",
      "9|grace|5|placed|orders-03.json");
  static final List<String> CLEAN_3_FILE = sorted("7|ada|9.5|placed", "8|hopper|60|cancelled", "9|grace|5|placed");

  @Test
  @Order(1)
  void firstRunProcessesEveryLandedFile() {
    IN_PROCESS.ok(dir, "run");
    reached = 1;

    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, withEvents(tables()));
    assertEquals(RAW_1, rows(t.get("orders_raw"), cols(RAW)), "orders_raw, including the mismatched file's NULLs");
    assertEquals(CLEAN_1, rows(t.get("orders_clean"), cols(CLEAN)));
    assertEquals(sorted("ada|1|120.5", "grace|1|35", "linus|1|42"), rows(t.get("revenue"), cols(REVENUE)));

    Events events = Events.from(t);
    String update = events.update(-1);
    assertEquals(1, events.updateCount());
    for (String flow : List.of("orders_raw", "orders_clean", "revenue")) {
      assertEquals(Optional.of("COMPLETED"), events.finalState(update, flow), flow + "\n" + events);
    }
    assertEquals(8, events.sum(update, "orders_raw", "num_output_rows"), events.toString());
    assertEquals(8, events.sum(update, "orders_clean", "num_input_rows"), events.toString());
    assertEquals(3, events.sum(update, "orders_clean", "num_output_rows"), events.toString());
    long dropped = events.batches(update, "orders_clean").stream()
        .mapToLong(d -> d.path("data_quality").path("dropped_records").asLong()).sum();
    assertEquals(5, dropped, events.toString());
  }

  @Test
  @Order(2)
  void incrementalRunAddsOnlyTheNewFile() {
    assumeTrue(reached == 1, "the first run failed");
    pipeline.json("landing/orders-03.json",
        "{\"id\": 7, \"customer\": \"ADA\", \"amount\": 9.50, \"status\": \"placed\"}",
        "{\"id\": 8, \"customer\": \"Hopper\", \"amount\": 60.00, \"status\": \"cancelled\"}",
        "{\"id\": 9, \"customer\": \"grace\", \"amount\": 5.00, \"status\": \"placed\"}");
    IN_PROCESS.ok(dir, "run");
    reached = 2;

    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, withEvents(tables()));
    assertEquals(concat(RAW_1, RAW_3_FILE), rows(t.get("orders_raw"), cols(RAW)), "no duplicates of earlier files");
    assertEquals(concat(CLEAN_1, CLEAN_3_FILE), rows(t.get("orders_clean"), cols(CLEAN)));
    assertEquals(sorted("ada|2|130", "grace|2|40", "linus|1|42"), rows(t.get("revenue"), cols(REVENUE)),
        "the materialized view is recomputed");

    Events events = Events.from(t);
    String update = events.update(-1);
    assertEquals(2, events.updateCount());
    assertEquals(3, events.sum(update, "orders_raw", "num_output_rows"), "only the new file is read\n" + events);
    assertEquals(3, events.sum(update, "orders_clean", "num_input_rows"), events.toString());
  }

  /**
   * Two updates, then one look: a rerun with no new input (§7.2), then
   * {@code --full-refresh orders_clean}, which clears that table and reprocesses all of
   * orders_raw into it while the other tables are left out. Neither may change any row.
   */
  @Test
  @Order(3)
  void rerunWithoutInputThenFullRefreshOfOneTableChangeNoRow() {
    assumeTrue(reached == 2, "the incremental run failed");
    IN_PROCESS.ok(dir, "run");
    IN_PROCESS.ok(dir, "run", "--full-refresh", "orders_clean");
    reached = 3;

    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, withEvents(tables()));
    assertEquals(concat(RAW_1, RAW_3_FILE), rows(t.get("orders_raw"), cols(RAW)));
    assertEquals(concat(CLEAN_1, CLEAN_3_FILE), rows(t.get("orders_clean"), cols(CLEAN)),
        "cleared and reprocessed: the same rows, no duplicates");
    assertEquals(sorted("ada|2|130", "grace|2|40", "linus|1|42"), rows(t.get("revenue"), cols(REVENUE)));

    Events events = Events.from(t);
    assertEquals(4, events.updateCount());
    String noInput = events.update(3);
    for (String flow : List.of("orders_raw", "orders_clean", "revenue")) {
      assertEquals(Optional.of("COMPLETED"), events.finalState(noInput, flow), flow + "\n" + events);
    }
    assertEquals(0, events.sum(noInput, "orders_raw", "num_output_rows"), events.toString());
    assertEquals(0, events.sum(noInput, "orders_clean", "num_output_rows"), events.toString());

    String refresh = events.update(4);
    assertEquals(Optional.of("EXCLUDED"), events.finalState(refresh, "orders_raw"), events.toString());
    assertEquals(Optional.of("EXCLUDED"), events.finalState(refresh, "revenue"), events.toString());
    assertEquals(Optional.of("COMPLETED"), events.finalState(refresh, "orders_clean"), events.toString());
    assertEquals(11, events.sum(refresh, "orders_clean", "num_input_rows"), "all of orders_raw is reprocessed\n" + events);
    assertEquals(6, events.sum(refresh, "orders_clean", "num_output_rows"), events.toString());
  }

  /**
   * {@code --refresh orders_raw} after a new file lands: only orders_raw takes it in; the
   * other flows are EXCLUDED. Then {@code --full-refresh orders_raw} is refused (reset not
   * allowed) and changes nothing. Then, with the first landing file deleted from disk,
   * {@code --full-refresh-all} keeps orders_raw (warning), and clears and rebuilds the others
   * from it: nothing of orders_raw is lost, orders_clean now holds the new file's order.
   */
  @Test
  @Order(4)
  void refreshSelectionResetProtectionAndFullRefreshAll() {
    assumeTrue(reached == 3, "an earlier step failed");
    pipeline.json("landing/orders-04.json",
        "{\"id\": 10, \"customer\": \"linus\", \"amount\": 8.00, \"status\": \"shipped\"}");
    IN_PROCESS.ok(dir, "run", "--refresh", "orders_raw");

    CommandResult refused = IN_PROCESS.failsCleanly(dir, "run", "--full-refresh", "orders_raw");
    assertTrue(refused.stderr().contains("orders_raw") && refused.stderr().contains("pipelines.reset.allowed"),
        () -> "the error names the table and the property: " + refused);

    pipeline.delete("landing/orders-01.json");
    CommandResult all = IN_PROCESS.ok(dir, "run", "--full-refresh-all");
    assertTrue(all.output().lines().anyMatch(l -> l.toLowerCase().contains("warn") && l.contains("orders_raw")
            && l.contains("pipelines.reset.allowed")),
        () -> "--full-refresh-all warns that it keeps orders_raw: " + all);

    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, withEvents(tables()));
    List<String> raw = concat(concat(RAW_1, RAW_3_FILE), List.of("10|linus|8|shipped|orders-04.json"));
    assertEquals(raw, rows(t.get("orders_raw"), cols(RAW)),
        "orders_raw is never cleared: the deleted file's rows are kept, nothing is doubled");
    assertEquals(concat(concat(CLEAN_1, CLEAN_3_FILE), List.of("10|linus|8|shipped")),
        rows(t.get("orders_clean"), cols(CLEAN)));
    assertEquals(sorted("ada|2|130", "grace|2|40", "linus|2|50"), rows(t.get("revenue"), cols(REVENUE)));

    Events events = Events.from(t);
    assertEquals(7, events.updateCount(), events.toString());
    String refresh = events.update(5);
    assertEquals(Optional.of("COMPLETED"), events.finalState(refresh, "orders_raw"), events.toString());
    assertEquals(1, events.sum(refresh, "orders_raw", "num_output_rows"), events.toString());
    assertEquals(Optional.of("EXCLUDED"), events.finalState(refresh, "orders_clean"), events.toString());
    assertEquals(Optional.of("EXCLUDED"), events.finalState(refresh, "revenue"), events.toString());

    String refusedUpdate = events.update(6);
    for (String flow : List.of("orders_raw", "orders_clean", "revenue")) {
      assertEquals(0, events.batches(refusedUpdate, flow).size(), "the refused update processed nothing\n" + events);
    }

    String fullRefresh = events.update(7);
    assertTrue(events.warnings(fullRefresh).stream().anyMatch(w -> w.contains("orders_raw")),
        "the warning is in the event log too\n" + events);
    assertEquals(0, events.sum(fullRefresh, "orders_raw", "num_output_rows"), events.toString());
    assertEquals(12, events.sum(fullRefresh, "orders_clean", "num_input_rows"), events.toString());
    assertEquals(7, events.sum(fullRefresh, "orders_clean", "num_output_rows"), events.toString());
    assertEquals(Optional.of("COMPLETED"), events.finalState(fullRefresh, "revenue"), events.toString());
  }

  static Map<String, String> tables() {
    Map<String, String> queries = new LinkedHashMap<>();
    for (String table : List.of("orders_raw", "orders_clean", "revenue")) {
      queries.put(table, "SELECT * FROM " + table);
    }
    return queries;
  }

  static Map<String, String> withEvents(Map<String, String> queries) {
    Events.addQueries(queries);
    return queries;
  }

  static String[] cols(String spec) {
    return spec.split("\\|");
  }

  static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).sorted().toList();
  }
}
