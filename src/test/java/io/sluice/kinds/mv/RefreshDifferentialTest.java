package io.sluice.kinds.mv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random inserts, updates and deletes arriving through AUTO CDC, and plain appends, with
 * duplicates, NULL keys and values, groups that empty and come back and joins that gain and lose
 * matches, under views of every shape: after every update each view holds exactly what its query
 * gives run afresh, whichever technique refreshed it.
 */
class RefreshDifferentialTest {
  private static final long SEED = 46;
  private static final String[] CITIES = {"Lyon", "Paris", null, "Nice"};
  @TempDir Path dir;
  private int sequence;

  @Test
  void everyRefreshEqualsTheQueryRunAfresh() {
    // INCREMENTAL where the query allows it: the test's small changes are large shares of its inputs.
    Map<String, String> views = new LinkedHashMap<>();
    views.put("groups", "REFRESH POLICY INCREMENTAL AS SELECT city, count(*) AS n, count(amount) AS priced,"
        + " sum(amount) AS total, min(name) AS first, max(amount) AS top FROM orders GROUP BY city");
    views.put("averages", "REFRESH POLICY INCREMENTAL AS SELECT lower(city) AS town, avg(amount) AS amount,"
        + " count(DISTINCT name) AS names FROM orders WHERE qty > 0 GROUP BY lower(city)");
    // avg of DECIMAL(8,2) Spark computes in floating point, of DECIMAL(20,3) in decimals, of INT in doubles.
    views.put("means", "REFRESH POLICY INCREMENTAL AS SELECT upper(city) AS town, avg(amount) AS amount, avg(qty) AS qty,"
        + " avg(CAST(amount AS DECIMAL(20,3)) / 7) AS seventh, min(name) AS first,"
        + " sum(qty) FILTER (WHERE amount > 5) AS big FROM orders WHERE qty <> 1 OR qty IS NULL GROUP BY upper(city)");
    views.put("towns", "PARTITIONED BY (town) REFRESH POLICY INCREMENTAL AS SELECT city AS town, avg(amount) AS amount,"
        + " count(DISTINCT name) AS names, max(qty) AS most FROM orders WHERE id % 5 <> 2 GROUP BY city");
    // A HAVING (on an aggregate the view does not show) and a column computed from a group's values.
    views.put("busy", "REFRESH POLICY INCREMENTAL AS SELECT city, sum(amount) AS total, count(*) * 2 AS twice FROM orders"
        + " WHERE qty IS NOT NULL GROUP BY city HAVING count(*) > 1 AND max(qty) < 3");
    views.put("whole", "REFRESH POLICY INCREMENTAL AS SELECT count(*) AS n, sum(qty) AS qty, max(name) AS last FROM orders");
    views.put("returned", "REFRESH POLICY INCREMENTAL AS SELECT id, city FROM returns WHERE qty > 0 UNION ALL"
        + " SELECT id, city FROM returns WHERE qty IS NULL");
    views.put("rows", "REFRESH POLICY INCREMENTAL AS SELECT id % 3 AS bucket, upper(name) AS name FROM orders"
        + " WHERE qty > 1 OR city IS NULL UNION ALL SELECT id % 3, city FROM returns");
    views.put("joined", "REFRESH POLICY INCREMENTAL AS SELECT o.id, upper(o.name) AS name, r.qty FROM orders o"
        + " LEFT JOIN returns r ON o.id = r.id");
    views.put("paired", "REFRESH POLICY INCREMENTAL AS SELECT o.city, r.qty, o.amount FROM orders o JOIN returns r"
        + " ON o.city = r.city AND r.qty >= o.qty");
    views.put("matched", "REFRESH POLICY INCREMENTAL AS SELECT o.id AS oid, r.id AS rid, r.city FROM orders o"
        + " FULL JOIN returns r ON o.id = r.id AND o.city = r.city");
    views.put("kept", "REFRESH POLICY INCREMENTAL AS SELECT r.id, o.name FROM orders o RIGHT JOIN"
        + " (SELECT * FROM returns r LEFT ANTI JOIN orders o ON r.city = o.city AND o.qty = 0) r ON o.id = r.id");
    views.put("returnedOrders", "REFRESH POLICY INCREMENTAL AS SELECT id, name FROM orders"
        + " WHERE id IN (SELECT id FROM returns WHERE qty > 0)");
    views.put("unreturned", "REFRESH POLICY INCREMENTAL AS SELECT id, city FROM orders o"
        + " WHERE NOT EXISTS (SELECT 1 FROM returns r WHERE r.id = o.id AND r.city = o.city)");
    views.put("ranked", "REFRESH POLICY INCREMENTAL AS SELECT id, city, rank() OVER (PARTITION BY city ORDER BY amount) AS r,"
        + " sum(qty) OVER (PARTITION BY city) AS q FROM orders WHERE id % 4 <> 1");
    StringBuilder sql = new StringBuilder("""
        CREATE STREAMING TABLE events AS SELECT * FROM STREAM read_files('landing/events', format => 'json',
          schema => 'id INT, city STRING, name STRING, qty INT, amount DECIMAL(8,2), op STRING, seq INT');
        CREATE STREAMING TABLE orders PARTITIONED BY (city);
        CREATE FLOW orders_cdc AS AUTO CDC INTO orders FROM STREAM(events) KEYS (id)
          APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq, _rescued_data);
        CREATE STREAMING TABLE returns AS SELECT * FROM STREAM read_files('landing/returns', format => 'json',
          schema => 'id INT, city STRING, qty INT', rescuedDataColumn => '');
        """);
    views.forEach((name, definition) -> sql.append("CREATE MATERIALIZED VIEW ").append(name).append(' ')
        .append(definition).append(";\n"));
    Random random = new Random(SEED);
    TestPipeline p = new TestPipeline(dir);
    events(p, random, 0, 8, false);
    returns(p, random, 0, 2);
    p.sql(sql.toString());
    for (int r = 1; r <= 3; r++) {
      int round = r;
      UpdateResult result = p.run();
      assertTrue(result.succeeded(), () -> "update " + round + " (seed " + SEED + "): " + result.flows().stream()
          .flatMap(f -> f.errorMessage().map(e -> f.dataset() + ": " + e).stream()).toList());
      for (Map.Entry<String, String> view : views.entrySet()) {
        String query = view.getValue().substring(view.getValue().indexOf("AS SELECT") + 3);
        assertEquals(p.rows(query), p.rows("SELECT * FROM " + view.getKey()),
            view.getKey() + " after update " + round + " (seed " + SEED + ")");
      }
      // Round 1 only inserts new keys; the later ones update and delete too.
      events(p, random, round, 2 + random.nextInt(4), round > 1);
      returns(p, random, round, 1 + random.nextInt(2));
    }
    // Deletes and updates retract from the groups' state; avg merges from its sum and count. A view
    // that keeps a group state is never refreshed by recomputing its touched groups, which would
    // leave the state behind.
    assertEquals(List.of("[COMPLETE_RECOMPUTE]", "[GROUP_AGGREGATE]"), techniques(p, "groups"));
    // New keys alone merge into the view's rows, leaving the group state behind; the deletes catch it up.
    assertEquals(1, p.rows("SELECT message FROM delta.`" + p.root().resolve(".sluice/system/event_log") + "` WHERE"
        + " origin.dataset_name = 'groups' AND message LIKE '%merged into the view''s rows%'").size(), "groups' merges");
    assertEquals(List.of("[COMPLETE_RECOMPUTE]", "[GROUP_AGGREGATE]"), techniques(p, "means"));
    assertEquals(List.of("[COMPLETE_RECOMPUTE]", "[GROUP_AGGREGATE]"), techniques(p, "averages"));
    assertEquals(List.of("[COMPLETE_RECOMPUTE]", "[PARTITION_OVERWRITE]"), techniques(p, "towns"));
    assertEquals(List.of("[COMPLETE_RECOMPUTE]", "[GENERIC_AGGREGATE]"), techniques(p, "busy"));
    assertTrue(techniques(p, "returned").contains("[APPEND_ONLY]"), String.valueOf(techniques(p, "returned")));
    assertTrue(techniques(p, "rows").contains("[ROW_BASED]"), String.valueOf(techniques(p, "rows")));
    for (String joined : List.of("joined", "paired", "matched", "kept", "returnedOrders", "unreturned")) {
      assertTrue(techniques(p, joined).contains("[ROW_BASED]"), joined + ": " + techniques(p, joined));
    }
    assertTrue(techniques(p, "ranked").contains("[WINDOW_FUNCTION]"), String.valueOf(techniques(p, "ranked")));
  }

  private static List<String> techniques(TestPipeline p, String view) {
    return p.rows("SELECT DISTINCT split(message, '[ ,]')[3] FROM delta.`" + p.root().resolve(".sluice/system/event_log")
        + "` WHERE event_type = 'planning_information' AND origin.dataset_name = '" + view + "'");
  }

  /** Change events for random keys: new keys only at first, then updates and deletes of any. */
  private void events(TestPipeline p, Random random, int round, int count, boolean anyKey) {
    StringBuilder json = new StringBuilder();
    for (int i = 0; i < count; i++) {
      int id = anyKey ? random.nextInt(12) : 100 * round + i;
      String city = CITIES[random.nextInt(CITIES.length)];
      String op = anyKey && random.nextInt(4) == 0 ? "D" : "U";
      json.append(String.format("{\"id\": %d, \"city\": %s, \"name\": %s, \"qty\": %s, \"amount\": %s, \"op\": \"%s\","
              + " \"seq\": %d}%n", id, quoted(city), random.nextInt(4) == 0 ? "null" : "\"n" + random.nextInt(5) + "\"",
          random.nextInt(5) == 0 ? "null" : String.valueOf(random.nextInt(4)),
          random.nextInt(4) == 0 ? "null" : random.nextInt(1000) / 100.0, op, ++sequence));
    }
    p.write("landing/events/" + round + ".json", json.toString());
  }

  private static void returns(TestPipeline p, Random random, int round, int count) {
    StringBuilder json = new StringBuilder();
    for (int i = 0; i < count; i++) {
      json.append(String.format("{\"id\": %d, \"city\": %s, \"qty\": %s}%n", random.nextInt(12),
          quoted(CITIES[random.nextInt(CITIES.length)]), random.nextInt(3) == 0 ? "null" : String.valueOf(random.nextInt(3))));
    }
    p.write("landing/returns/" + round + ".json", json.toString());
  }

  private static String quoted(String value) {
    return value == null ? "null" : "\"" + value + "\"";
  }
}
