package io.sluice.kinds.mv;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.io.FileUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A materialized view refreshes by what its inputs appended when its query allows it, and is
 * recomputed in full otherwise; either way it holds exactly what its query gives afresh, and each
 * refresh says which technique it took and why.
 */
class IncrementalRefreshTest {
  private static final String SOURCE = """
      CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json',
        schema => 'id INT, city STRING, amount DECIMAL(10,2), score DOUBLE');
      """;
  @TempDir Path dir;

  private TestPipeline pipeline(String views) {
    return new TestPipeline(dir)
        .write("landing/0.json", """
            {"id": 1, "city": "Lyon", "amount": 10.50, "score": 1.5}
            {"id": 2, "city": "Paris", "amount": null, "score": 2.0}
            {"id": 3, "city": null, "amount": 7.25, "score": null}
            """)
        .sql(SOURCE + views);
  }

  /** The technique the view's last refresh took, from its last planning event. */
  private static String technique(TestPipeline p, String view) {
    String last = message(p, view);
    return last.substring(last.indexOf("refresh: ") + "refresh: ".length()).split("[ ,]")[0];
  }

  /** The message of the view's last planning event. */
  private static String message(TestPipeline p, String view) {
    List<String> messages = p.rows("SELECT concat(date_format(timestamp, 'yyyyMMddHHmmssSSSSSS'), lpad(sequence, 10, '0'), ' ', message) FROM delta.`"
        + p.root().resolve(".sluice/system/event_log") + "` WHERE event_type = 'planning_information' AND origin.dataset_name = '"
        + view + "'");
    return messages.get(messages.size() - 1);
  }

  private static void assertFresh(TestPipeline p, String view, String query) {
    assertEquals(p.rows(query), p.rows("SELECT * FROM " + view), view + " holds what its query gives afresh");
  }

  @Test
  void groupsAndRowsFollowAppendsIncrementally() {
    String byCity = "SELECT city, count(*) AS n, count(amount) AS priced, sum(amount) AS total, min(id) AS first,"
        + " max(city) AS last_city FROM raw GROUP BY city";
    String lyon = "SELECT id, upper(city) AS city FROM raw WHERE city = 'Lyon' OR city IS NULL";
    // INCREMENTAL: the test's few rows change by half at each append, which AUTO would recompute.
    TestPipeline p = pipeline("CREATE MATERIALIZED VIEW by_city REFRESH POLICY INCREMENTAL AS " + byCity + ";\n"
        + "CREATE MATERIALIZED VIEW lyon REFRESH POLICY INCREMENTAL AS " + lyon + ";\n"
        + "CREATE MATERIALIZED VIEW averages REFRESH POLICY INCREMENTAL AS SELECT city, avg(score) AS score FROM raw"
        + " GROUP BY city;\n");
    assertTrue(p.run().succeeded());
    assertEquals("COMPLETE_RECOMPUTE", technique(p, "by_city"), "the first refresh computes the view");

    p.write("landing/1.json", """
        {"id": 4, "city": "Lyon", "amount": 1.00, "score": 0.5}
        {"id": 5, "city": null, "amount": null, "score": 3.0}
        {"id": 6, "city": "Nice", "amount": 2.00, "score": 1.0}
        """);
    assertTrue(p.run().succeeded());
    assertEquals("GROUP_AGGREGATE", technique(p, "by_city"));
    assertTrue(message(p, "by_city").contains("merged into the view's rows"), "count, sum, min and max take appends from"
        + " the view's own values: " + message(p, "by_city"));
    assertEquals("APPEND_ONLY", technique(p, "lyon"));
    assertEquals("GENERIC_AGGREGATE", technique(p, "averages"), "avg does not merge: its touched groups are recomputed");
    assertFresh(p, "by_city", byCity);
    assertFresh(p, "lyon", lyon);
    assertFresh(p, "averages", "SELECT city, avg(score) AS score FROM raw GROUP BY city");

    UpdateResult idle = p.run();
    assertTrue(idle.succeeded());
    assertEquals("NO_OP", technique(p, "by_city"));

    p.spark().sql("DELETE FROM " + p.database() + ".raw WHERE id = 4");
    assertTrue(p.run().succeeded());
    assertEquals("COMPLETE_RECOMPUTE", technique(p, "by_city"), "a delete in a table without a change feed");
    assertTrue(message(p, "by_city").contains("change data feed"), message(p, "by_city"));
    assertFresh(p, "by_city", byCity);
    assertFresh(p, "lyon", lyon);
  }

  @Test
  void deletesAndUpdatesRetractFromTheGroupsTheyTouch() {
    // Computed keys: only a merge follows the groups (a recompute of the touched groups needs input columns).
    String totals = "SELECT coalesce(city, '?') AS city, count(*) AS n, sum(amount) AS total, avg(amount) AS mean,"
        + " min(amount) AS low FROM sales GROUP BY coalesce(city, '?')";
    String amounts = "SELECT lower(city) AS city, count(DISTINCT amount) AS amounts, count(*) AS n FROM sales"
        + " GROUP BY lower(city)";
    TestPipeline p = new TestPipeline(dir)
        .write("landing/0.json", """
            {"id": 1, "city": "Lyon", "amount": 10.50}
            {"id": 5, "city": "Lyon", "amount": 10.50}
            {"id": 2, "city": "Lyon", "amount": 4.25}
            {"id": 3, "city": "Nice", "amount": 7.00}
            {"id": 4, "city": null, "amount": null}
            """)
        .sql("""
            CREATE STREAMING TABLE sales TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true') AS SELECT * FROM
              STREAM read_files('landing', format => 'json', schema => 'id INT, city STRING, amount DECIMAL(10,2)',
              rescuedDataColumn => '');
            CREATE MATERIALIZED VIEW totals REFRESH POLICY INCREMENTAL STRICT AS\s""" + totals + ";\n"
            + "CREATE MATERIALIZED VIEW amounts REFRESH POLICY INCREMENTAL STRICT AS " + amounts + ";");
    assertTrue(p.run().succeeded());
    p.spark().sql("DELETE FROM " + p.database() + ".sales WHERE id = 3");
    p.spark().sql("UPDATE " + p.database() + ".sales SET amount = 20.00 WHERE id = 2");
    p.spark().sql("UPDATE " + p.database() + ".sales SET amount = 1.00 WHERE id = 4");
    assertTrue(p.run().succeeded(), "STRICT: the groups follow deletes and updates incrementally");
    assertEquals("GROUP_AGGREGATE", technique(p, "totals"));
    assertEquals("GROUP_AGGREGATE", technique(p, "amounts"));
    assertEquals(List.of("[?,1,1.00,1.000000,1.00]", "[Lyon,3,41.00,13.666667,10.50]"),
        p.rows("SELECT * FROM totals"), "Nice emptied and went; Lyon lost its minimum; the NULL group gained an amount");
    assertEquals(List.of("[lyon,2,3]", "[null,1,1]"), p.rows("SELECT * FROM amounts"),
        "Lyon's 4.25 left, its 20.00 came; the NULL group's first amount");
    assertFresh(p, "totals", totals);
    assertFresh(p, "amounts", amounts);

    p.spark().sql("DELETE FROM " + p.database() + ".sales WHERE id = 5");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[lyon,2,2]", "[null,1,1]"), p.rows("SELECT * FROM amounts"), "10.50 is still held by id 1");
    assertFresh(p, "totals", totals);
  }

  @Test
  void joinsAndWindowsRefreshByWhatChanged() {
    String located = "SELECT r.id, p.country FROM raw r JOIN places p ON r.city = p.city";
    String everywhere = "SELECT r.id, r.city, p.country FROM raw r LEFT JOIN places p ON r.city = p.city";
    String ranked = "SELECT id, city, row_number() OVER (PARTITION BY city ORDER BY id DESC) AS n FROM raw";
    TestPipeline p = pipeline("CREATE STREAMING TABLE places AS SELECT * FROM STREAM read_files('places', format => 'json',"
        + " schema => 'city STRING, country STRING');\n"
        + "CREATE MATERIALIZED VIEW located REFRESH POLICY INCREMENTAL AS " + located + ";\n"
        + "CREATE MATERIALIZED VIEW everywhere REFRESH POLICY INCREMENTAL AS " + everywhere + ";\n"
        + "CREATE MATERIALIZED VIEW ranked REFRESH POLICY INCREMENTAL AS " + ranked + ";\n");
    p.write("places/0.json", "{\"city\": \"Rome\", \"country\": \"IT\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals(List.of(), p.rows("SELECT * FROM located"), "no city matches yet");

    p.write("landing/1.json", """
        {"id": 4, "city": "Lyon"}
        {"id": 5, "city": "Rome"}
        """);
    p.write("places/1.json", "{\"city\": \"Lyon\", \"country\": \"FR\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals("APPEND_ONLY", technique(p, "located"), "an inner join's sides only gained rows");
    assertEquals("ROW_BASED", technique(p, "everywhere"), "Lyon's rows lose their NULL country");
    assertEquals("WINDOW_FUNCTION", technique(p, "ranked"));
    assertFresh(p, "located", located);
    assertFresh(p, "everywhere", everywhere);
    assertFresh(p, "ranked", ranked);
    assertEquals(List.of("[1,FR]", "[4,FR]", "[5,IT]"), p.rows("SELECT * FROM located"));

    // The files of the version the views last read, compacted and deleted at once: the window cannot read them again.
    p.spark().sql("OPTIMIZE " + p.database() + ".raw");
    p.spark().conf().set("spark.databricks.delta.retentionDurationCheck.enabled", "false");
    try {
      p.spark().sql("VACUUM " + p.database() + ".raw RETAIN 0 HOURS");
    } finally {
      p.spark().conf().unset("spark.databricks.delta.retentionDurationCheck.enabled");
    }
    p.spark().sql("INSERT INTO " + p.database() + ".raw (id, city) VALUES (6, 'Lyon')");
    String out = IN_PROCESS.ok(p.root(), "dry-run", "--verbose").stdout();
    assertTrue(out.contains(" located would refresh now by APPEND_ONLY, 1 row appended to "), out);
    assertTrue(out.contains(" ranked would refresh now by WINDOW_FUNCTION"), out);
    assertEquals(List.of("[1,FR]", "[4,FR]", "[5,IT]"), p.rows("SELECT * FROM located"), "dry-run writes nothing");
    String dot = IN_PROCESS.ok(p.root(), "graph", "--format", "dot").stdout();
    assertTrue(dot.matches("(?s).*\\[label=\"located\\\\nmaterialized view\\\\n[^\"]*\\\\nnext refresh: APPEND_ONLY\".*"), dot);

    p.write("landing/2.json", "{\"id\": 7, \"city\": \"Lyon\"}\n");
    assertTrue(p.run().succeeded());
    assertFresh(p, "ranked", ranked);
    assertFresh(p, "located", located);
    assertEquals(List.of("[1]"), p.rows("SELECT count(*) FROM delta.`" + p.root().resolve(".sluice/system/event_log")
        + "` WHERE level = 'WARN' AND origin.dataset_name = 'ranked'"
        + " AND message LIKE '%WINDOW_FUNCTION could not read its inputs as the last refresh read them%'"));
  }

  @Test
  void aViewPartitionedAsItsInputRecomputesTheChangedPartitionsWhateverTheChange() {
    String daily = "SELECT day, count(DISTINCT city) AS cities, avg(amount) AS amount FROM sales GROUP BY day";
    TestPipeline p = new TestPipeline(dir)
        .write("landing/0.json", """
            {"id": 1, "day": "2026-12-01", "city": "Lyon", "amount": 10.50}
            {"id": 2, "day": "2026-12-01", "city": "Paris", "amount": null}
            {"id": 3, "day": "2026-12-02", "city": null, "amount": 7.25}
            {"id": 4, "day": null, "city": "Nice", "amount": 1.00}
            """)
        .sql("""
            CREATE STREAMING TABLE sales PARTITIONED BY (day) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'false')
              AS SELECT * FROM STREAM read_files('landing', format => 'json',
              schema => 'id INT, day DATE, city STRING, amount DECIMAL(10,2)', rescuedDataColumn => '');
            CREATE MATERIALIZED VIEW daily PARTITIONED BY (day) REFRESH POLICY INCREMENTAL STRICT AS\s""" + daily + ";");
    assertTrue(p.run().succeeded());
    assertFresh(p, "daily", daily);
    String out = IN_PROCESS.ok(p.root(), "dry-run").stdout();
    assertTrue(out.contains("PARTITION_OVERWRITE after any change if its input is partitioned by day"), out);

    // An append to one day: that day alone is recomputed.
    p.write("landing/1.json", "{\"id\": 5, \"day\": \"2026-12-02\", \"city\": \"Lyon\", \"amount\": 2.00}\n");
    assertTrue(p.run().succeeded());
    assertFresh(p, "daily", daily);
    assertTrue(message(p, "daily").contains("refresh: PARTITION_OVERWRITE, 1 partition of "), message(p, "daily"));

    // Deletes, with no change data feed to read them from: the days whose files changed, NULL's included; an emptied day goes.
    p.spark().sql("DELETE FROM " + p.database() + ".sales WHERE day IS NULL OR id = 1");
    assertTrue(p.run().succeeded());
    assertEquals("PARTITION_OVERWRITE", technique(p, "daily"), message(p, "daily"));
    assertFresh(p, "daily", daily);
    // The planning event in Lakeflow's shape: each technique weighed, the chosen one, why the others could not.
    List<String> weighed = p.rows("SELECT t.maintenance_type, t.is_applicable, t.is_chosen, t.incrementalization_issues[0].issue_type"
        + " FROM (SELECT explode(from_json(details, 'planning_information STRUCT<technique_information: ARRAY<STRUCT<"
        + "maintenance_type: STRING, is_applicable: BOOLEAN, is_chosen: BOOLEAN, cost: BIGINT,"
        + " incrementalization_issues: ARRAY<STRUCT<issue_type: STRING, reason: STRING>>>>>').planning_information"
        + ".technique_information) AS t FROM (SELECT details FROM delta.`" + p.root().resolve(".sluice/system/event_log")
        + "` WHERE event_type = 'planning_information' AND origin.dataset_name = 'daily' ORDER BY timestamp DESC, sequence DESC"
        + " LIMIT 1))");
    assertTrue(weighed.contains("[MAINTENANCE_TYPE_PARTITION_OVERWRITE,true,true,null]"), String.valueOf(weighed));
    assertTrue(weighed.contains("[MAINTENANCE_TYPE_GENERIC_AGGREGATE,false,false,INPUT_REWRITTEN]"), String.valueOf(weighed));
    assertTrue(weighed.contains("[MAINTENANCE_TYPE_APPEND_ONLY,false,false,INPUT_REWRITTEN]"), String.valueOf(weighed));
    assertEquals(List.of("[2026-12-01]", "[2026-12-02]"), p.rows("SELECT day FROM daily"));
  }

  @Test
  void dryRunSaysHowEachViewCanRefresh() {
    TestPipeline p = pipeline("""
        CREATE MATERIALIZED VIEW by_city AS SELECT city, count(*) AS n FROM raw GROUP BY city;
        CREATE MATERIALIZED VIEW lyon AS SELECT id FROM raw WHERE city = 'Lyon';
        CREATE MATERIALIZED VIEW ranked AS SELECT id, rank() OVER (PARTITION BY city ORDER BY id) AS r FROM raw;
        CREATE MATERIALIZED VIEW copied REFRESH POLICY FULL AS SELECT * FROM raw;
        CREATE MATERIALIZED VIEW busy REFRESH POLICY INCREMENTAL
          AS SELECT city AS town, count(*) * 2 AS twice FROM raw GROUP BY city HAVING count(*) > 1;
        CREATE MATERIALIZED VIEW counted AS SELECT upper(city) AS town, n FROM (SELECT city, count(*) AS n FROM raw GROUP BY city);
        """);
    String out = IN_PROCESS.ok(p.root(), "dry-run").stdout();
    // Under a HAVING the groups are recomputed, not merged; a key computed above the GROUP BY finds no group again.
    assertTrue(out.contains(" busy is refreshed by GENERIC_AGGREGATE, else recomputed"), out);
    assertTrue(out.contains(" counted is recomputed in full: GROUP BY city is not a column of the view"), out);
    assertTrue(out.contains(" by_city is refreshed by GROUP_AGGREGATE after any change, else recomputed"), out);
    assertTrue(out.contains(" lyon is refreshed by APPEND_ONLY after appends, ROW_BASED after deletes and updates"), out);
    assertTrue(out.contains(" ranked is refreshed by WINDOW_FUNCTION after any change, else recomputed"), out);
    assertTrue(out.contains(" copied is REFRESH POLICY FULL"), out);
  }

  @Test
  void anIncrementalPolicyOnAQueryThatCanNeverBeIsRefused() {
    TestPipeline p = pipeline("""
        CREATE MATERIALIZED VIEW fine REFRESH POLICY INCREMENTAL AS SELECT city FROM raw WHERE id > 1;

        CREATE MATERIALIZED VIEW sampled REFRESH POLICY INCREMENTAL STRICT
        AS SELECT id, rand() AS r FROM raw;
        """);
    SluiceException error = assertThrows(SluiceException.class, p::run);
    assertEquals("MATERIALIZED_VIEW_NOT_INCREMENTALIZABLE", error.errorClass());
    assertTrue(error.userMessage().contains("pipeline.sql:5") && error.userMessage().contains("rand()"), error.userMessage());
    assertFalse(p.spark().catalog().databaseExists(p.database()), "nothing is written");

    p.sql(SOURCE + "CREATE STREAMING TABLE averages REFRESH POLICY FULL AS SELECT * FROM STREAM raw;");
    assertEquals("REFRESH_POLICY_TARGET", assertThrows(SluiceException.class, p::run).errorClass());
  }

  @Test
  void underAutoAViewWhoseGroupsMergeTakesALargerChange() {
    String merged = "SELECT city, count(*) AS n, sum(amount) AS total FROM raw GROUP BY city";
    TestPipeline p = new TestPipeline(dir).write("landing/0.json", rows(0, 2000)).sql(SOURCE
        + "CREATE MATERIALIZED VIEW merged AS " + merged + ";\n"
        + "CREATE MATERIALIZED VIEW filtered AS SELECT id, city FROM raw WHERE id > 1;\n");
    assertTrue(p.run().succeeded());
    // About a third of the input appended: more than a filter takes (30%), less than a merge does
    // (50%), as recomputing the merged view would write its group state as well.
    p.write("landing/1.json", rows(2000, 1000));
    assertTrue(p.run().succeeded());
    assertEquals("GROUP_AGGREGATE", technique(p, "merged"), message(p, "merged"));
    assertEquals("COMPLETE_RECOMPUTE", technique(p, "filtered"), message(p, "filtered"));
    assertTrue(message(p, "filtered").contains("more than 30% of the inputs"), message(p, "filtered"));
    assertFalse(message(p, "merged").contains("merged into the view's rows"), "more than 10% of the input appended:"
        + " the group state merges it too, rather than a later refresh reading it again");
    assertFresh(p, "merged", merged);

    p.write("landing/2.json", rows(3000, 9));
    assertTrue(p.run().succeeded());
    assertTrue(message(p, "merged").contains("merged into the view's rows"), message(p, "merged"));
    assertFresh(p, "merged", merged);
  }

  /** {@code count} rows of {@code raw}'s source from id {@code from}, in seven cities. */
  private static String rows(int from, int count) {
    StringBuilder json = new StringBuilder();
    for (int id = from; id < from + count; id++) {
      json.append(String.format("{\"id\": %d, \"city\": \"c%d\", \"amount\": %d.25, \"score\": 1.0}%n", id, id % 7, id));
    }
    return json.toString();
  }

  @Test
  void theRefreshPolicyDecides() throws IOException {
    TestPipeline p = pipeline("""
        CREATE MATERIALIZED VIEW always_full REFRESH POLICY FULL AS SELECT city, count(*) AS n FROM raw GROUP BY city;
        CREATE MATERIALIZED VIEW strict REFRESH POLICY INCREMENTAL STRICT AS SELECT city, count(*) AS n FROM raw GROUP BY city;
        CREATE MATERIALIZED VIEW by_cost AS SELECT id, city FROM raw WHERE id > 1;
        """);
    assertTrue(p.run().succeeded(), "the first refresh of a strict view computes it");
    p.write("landing/1.json", "{\"id\": 4, \"city\": \"Lyon\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals("COMPLETE_RECOMPUTE", technique(p, "always_full"));
    assertEquals("GROUP_AGGREGATE", technique(p, "strict"));
    assertEquals("COMPLETE_RECOMPUTE", technique(p, "by_cost"), "AUTO recomputes when much of the input changed");
    assertTrue(message(p, "by_cost").contains("more than 30% of the inputs"), message(p, "by_cost"));
    assertEquals(List.of("[Lyon,2]", "[Paris,1]", "[null,1]"), p.rows("SELECT * FROM strict"));

    // Its group state gone (a deleted folder, an upgrade): recomputed once, even when strict, then merged again.
    Path strictState = Arrays.stream(dir.resolve(".sluice/checkpoints").toFile().listFiles())
        .filter(f -> f.getName().endsWith(".strict")).findFirst().orElseThrow().toPath().resolve(".view-state");
    FileUtils.deleteDirectory(strictState.toFile());
    p.write("landing/2.json", "{\"id\": 5, \"city\": \"Nice\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals("COMPLETE_RECOMPUTE", technique(p, "strict"), message(p, "strict"));
    assertTrue(message(p, "strict").contains("aggregate state is not kept yet"), message(p, "strict"));
    p.write("landing/3.json", "{\"id\": 6, \"city\": \"Nice\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals("GROUP_AGGREGATE", technique(p, "strict"), message(p, "strict"));
    assertEquals(List.of("[Lyon,2]", "[Nice,2]", "[Paris,1]", "[null,1]"), p.rows("SELECT * FROM strict"));

    p.spark().sql("DELETE FROM " + p.database() + ".raw WHERE id = 4");
    UpdateResult failed = p.run();
    assertFalse(failed.succeeded(), "a strict view cannot follow a delete incrementally");
    String error = failed.flows().stream().filter(f -> f.dataset().equals("strict")).findFirst().orElseThrow()
        .errorMessage().orElseThrow();
    assertTrue(error.contains("MATERIALIZED_VIEW_NOT_INCREMENTALIZABLE") && error.contains("deleted or updated rows"), error);
    assertEquals(List.of("[Lyon,2]", "[Nice,2]", "[Paris,1]", "[null,1]"), p.rows("SELECT * FROM strict"), "nothing was written");
  }
}
