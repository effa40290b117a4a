package io.sluice.kinds.mv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.TestPipeline;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random appends and deletes, with duplicates, NULL keys and values and groups that empty and
 * come back, under views of every shape: after every update each view holds exactly what its
 * query gives run afresh, whichever technique refreshed it.
 */
class RefreshDifferentialTest {
  private static final long SEED = 46;
  private static final String[] CITIES = {"Lyon", "Paris", null, "Nice"};
  @TempDir Path dir;

  @Test
  void everyRefreshEqualsTheQueryRunAfresh() {
    // INCREMENTAL where the query allows it: the test's small appends are large shares of its inputs.
    Map<String, String> views = new LinkedHashMap<>();
    views.put("groups", "REFRESH POLICY INCREMENTAL AS SELECT city, count(*) AS n, count(amount) AS priced,"
        + " sum(amount) AS total, min(name) AS first, max(amount) AS top FROM orders GROUP BY city");
    views.put("whole", "REFRESH POLICY INCREMENTAL AS SELECT count(*) AS n, sum(qty) AS qty, max(name) AS last FROM orders");
    views.put("rows", "REFRESH POLICY INCREMENTAL AS SELECT id, upper(name) AS name, qty * 2 AS doubled FROM orders"
        + " WHERE qty > 1 OR city IS NULL");
    views.put("both", "REFRESH POLICY INCREMENTAL AS SELECT id, city FROM orders UNION ALL SELECT id, city FROM returns");
    views.put("joined", "AS SELECT o.id, r.qty FROM orders o LEFT JOIN returns r ON o.id = r.id");
    views.put("distinct_names", "AS SELECT city, count(DISTINCT name) AS names FROM orders GROUP BY city");
    StringBuilder sql = new StringBuilder("""
        CREATE STREAMING TABLE orders AS SELECT * FROM STREAM read_files('landing/orders', format => 'json',
          schema => 'id INT, city STRING, name STRING, qty INT, amount DECIMAL(8,2)');
        CREATE STREAMING TABLE returns AS SELECT * FROM STREAM read_files('landing/returns', format => 'json',
          schema => 'id INT, city STRING, name STRING, qty INT, amount DECIMAL(8,2)');
        """);
    views.forEach((name, definition) -> sql.append("CREATE MATERIALIZED VIEW ").append(name).append(' ')
        .append(definition).append(";\n"));
    Random random = new Random(SEED);
    TestPipeline p = new TestPipeline(dir);
    append(p, random, "orders", 0, 6);
    append(p, random, "returns", 0, 2);
    p.sql(sql.toString());
    for (int round = 1; round <= 4; round++) {
      assertTrue(p.run().succeeded(), "update " + round + " (seed " + SEED + ")");
      for (Map.Entry<String, String> view : views.entrySet()) {
        String query = view.getValue().substring(view.getValue().indexOf("AS SELECT") + 3);
        assertEquals(p.rows(query), p.rows("SELECT * FROM " + view.getKey()),
            view.getKey() + " after update " + round + " (seed " + SEED + ")");
      }
      append(p, random, "orders", round, 2 + random.nextInt(4));
      if (random.nextBoolean()) {
        append(p, random, "returns", round, 1 + random.nextInt(2));
      }
      if (round == 2) {
        // A group empties; the next appends bring it back.
        p.spark().sql("DELETE FROM " + p.database() + ".orders WHERE city = 'Nice' OR id % 3 = 0");
      }
    }
    assertEquals(List.of("[COMPLETE_RECOMPUTE]", "[GROUP_AGGREGATE]"), techniques(p, "groups"));
    assertEquals(List.of("[APPEND_ONLY]", "[COMPLETE_RECOMPUTE]"), techniques(p, "rows"));
    assertEquals(List.of("[COMPLETE_RECOMPUTE]"), techniques(p, "distinct_names"));
  }

  private static List<String> techniques(TestPipeline p, String view) {
    return p.rows("SELECT DISTINCT split(message, '[ ,]')[3] FROM delta.`" + p.root().resolve(".sluice/system/event_log")
        + "` WHERE event_type = 'planning_information' AND origin.dataset_name = '" + view + "'");
  }

  private static void append(TestPipeline p, Random random, String table, int round, int rows) {
    StringBuilder json = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      String city = CITIES[random.nextInt(CITIES.length)];
      int id = random.nextInt(12);
      json.append(String.format("{\"id\": %d, \"city\": %s, \"name\": %s, \"qty\": %s, \"amount\": %s}%n", id,
          city == null ? "null" : "\"" + city + "\"", random.nextInt(4) == 0 ? "null" : "\"n" + random.nextInt(5) + "\"",
          random.nextInt(5) == 0 ? "null" : String.valueOf(random.nextInt(4)),
          random.nextInt(4) == 0 ? "null" : random.nextInt(1000) / 100.0));
    }
    p.write("landing/" + table + "/" + round + ".json", json.toString());
  }
}
