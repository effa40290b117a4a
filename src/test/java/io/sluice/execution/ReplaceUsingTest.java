package io.sluice.execution;

import static org.apache.spark.sql.functions.max;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.sluice.testsupport.SparkJobs;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** REPLACE USING flows through the real engine (SEMANTICS §2). */
class ReplaceUsingTest {
  @TempDir Path dir;

  private TestPipeline pipeline(String definitions) {
    TestPipeline p = new TestPipeline(dir).sql(definitions);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".events (region_id INT, device STRING, event STRING, seq INT) USING delta");
    return p;
  }

  private void insert(TestPipeline p, String values) {
    p.spark().sql("INSERT INTO " + p.database() + ".events VALUES " + values);
  }

  @Test
  void theDocumentsOpeningExample() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'click', 1), (1, 'Android', 'conversion', 1), (2, 'iOS', 'click', 1), (2, 'desktop', 'click', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'iOS', 'click', 2), (1, 'Android', 'conversion', 2), (1, 'desktop', 'click', 2), "
        + "(3, 'iOS', 'click', 1), (3, 'desktop', 'click', 2)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of(
            "[1,Android,conversion,2]", "[1,desktop,click,2]", "[1,iOS,click,2]",
            "[2,desktop,click,1]", "[2,iOS,click,1]",
            "[3,desktop,click,2]"),
        p.rows("SELECT * FROM regions"));
    assertEquals(List.of("[1,WRITE]", "[2,REPLACE USING]"), DeltaTable.forName(p.spark(), p.database() + ".regions").history()
            .where("version > 0").selectExpr("version", "operation").orderBy("version").collectAsList().stream()
            .map(Row::toString).toList(),
        "the first batch only inserts keys: appended; the second replaces key 1: one commit of its own");
  }

  /**
   * A small batch that replaces a key and adds one runs at most 5 Spark jobs: the batch's count
   * (which samples the keys), one for its decisions and their counts (its joins are of the
   * batch's size, so nothing is broadcast in a job of its own), and the keyed commit's three.
   */
  @Test
  void aSmallBatchRunsFewSparkJobs() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'click', 1), (2, 'iOS', 'click', 1), (2, 'desktop', 'click', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(2, 'Android', 'view', 2), (3, 'iOS', 'click', 1)");
    List<String> jobs = SparkJobs.descriptions(p.spark(), () -> assertTrue(p.run().succeeded())).stream()
        .filter(d -> d.contains("batch = 1")).toList();
    assertEquals(List.of("[1,iOS,click,1]", "[2,Android,view,2]", "[3,iOS,click,1]"), p.rows("SELECT * FROM regions"));
    assertEquals(1, jobs.stream().filter(d -> d.endsWith("sluice: changes > counts")).count(), () -> String.join("\n", jobs));
    assertTrue(jobs.size() <= 5, () -> jobs.size() + " jobs for the batch:\n" + String.join("\n", jobs));
  }

  @Test
  void keysWhoseNamesHoldBackquotesAndDots() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions
        FLOW REPLACE USING (`region``s_id`, `dev.ice`) SEQUENCE BY seq BY NAME
        SELECT region_id AS `region``s_id`, device AS `dev.ice`, event, seq FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'click', 1), (2, 'iOS', 'click', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'iOS', 'conversion', 2), (2, 'iOS', 'late', 0)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[1,iOS,conversion,2]", "[2,iOS,click,1]"), p.rows("SELECT * FROM regions"));
  }

  @Test
  void equalAppendsLowerIsIgnoredNullKeysMatchAndTheLongFormWorks() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions;
        CREATE FLOW latest AS INSERT INTO regions BY NAME
        REPLACE USING (region_id, device) SEQUENCE BY seq
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'a', 5), (NULL, 'iOS', 'b', 1), (2, NULL, 'c', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'iOS', 'late', 4), (1, 'iOS', 'same', 5), (NULL, 'iOS', 'newer', 2), (2, NULL, 'newer', 3)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[1,iOS,a,5]", "[1,iOS,same,5]", "[2,null,newer,3]", "[null,iOS,newer,2]"),
        p.rows("SELECT * FROM regions"));
    assertFalse(p.rows("SELECT * FROM regions").contains("[1,iOS,late,4]"));
  }

  @Test
  void resultDoesNotDependOnArrivalOrderOrBatching() throws Exception {
    Random random = new Random(20261129);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      String key = random.nextInt(6) == 0 ? "null" : String.valueOf(random.nextInt(5));
      rows.add("{\"region_id\": " + key + ", \"device\": \"d" + random.nextInt(3) + "\", \"event\": \"e" + i
          + "\", \"seq\": " + random.nextInt(4) + "}");
    }
    List<String> expected = null;
    for (int order = 0; order < 3; order++) {
      List<String> shuffled = new ArrayList<>(rows);
      Collections.shuffle(shuffled, random);
      TestPipeline p = new TestPipeline(Files.createDirectories(dir.resolve("order" + order))).sql("""
          CREATE STREAMING TABLE regions
          FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
          SELECT * EXCEPT (_rescued_data) FROM STREAM read_files('landing', format => 'json', maxFilesPerTrigger => 1,
            schema => 'region_id INT, device STRING, event STRING, seq INT');
          """);
      int file = 0;
      for (int start = 0; start < shuffled.size(); file++) {
        int end = Math.min(shuffled.size(), start + 1 + random.nextInt(24));
        Path batch = p.root().resolve("landing/batch-" + (100 + file) + ".json");
        p.write(p.root().relativize(batch).toString(), String.join("\n", shuffled.subList(start, end)) + "\n");
        Files.setLastModifiedTime(batch, FileTime.fromMillis(1_000_000_000_000L + file * 1000L));
        start = end;
      }
      UpdateResult result = p.run();
      assertTrue(result.succeeded(), () -> result.flows().toString());
      assertEquals(file, result.flows().get(0).batches(), "one micro-batch per file");
      List<String> actual = p.rows("SELECT * FROM regions");
      if (expected == null) {
        expected = model(rows, p);
      }
      assertEquals(expected, actual, "order " + order);
    }
  }

  /** The invariant of §2.3: per key, every row that carries the key's highest sequence. */
  private static List<String> model(List<String> json, TestPipeline p) {
    Dataset<Row> all = p.spark().read().schema("region_id INT, device STRING, event STRING, seq INT")
        .json(p.spark().createDataset(json, Encoders.STRING()));
    return all.withColumn("top", max("seq").over(Window.partitionBy("region_id")))
        .where("seq = top").drop("top")
        .collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void expectationsComeFirstAndMetricsAreReported() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions (
          CONSTRAINT known_device EXPECT (device IS NOT NULL) ON VIOLATION DROP ROW,
          CONSTRAINT short_event EXPECT (length(event) < 10)
        )
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'a', 1), (1, 'iOS', 'b', 1), (2, 'iOS', 'c', 5)");
    assertTrue(p.run().succeeded());
    // Region 1: the dropped row's sequence 9 sets no threshold, so the valid sequence-2 row replaces.
    // Region 2: sequence 3 is late. Region 3: new, with a warned-about row kept.
    insert(p, "(1, NULL, 'dropped', 9), (1, 'Android', 'x', 2), (2, 'iOS', 'late', 3), (3, 'iOS', 'a-long-event', 1)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[1,Android,x,2]", "[2,iOS,c,5]", "[3,iOS,a-long-event,1]"), p.rows("SELECT * FROM regions"));
    assertEquals(Map.of("keys_replaced", 1L, "rows_inserted", 2L, "rows_appended", 0L, "rows_ignored_late", 1L,
        "target_rows_removed", 2L), result.flows().get(0).kindMetrics(), "the run summary's figures");
    String details = p.spark().read().format("delta").load(p.root().resolve(".sluice/system/event_log").toString())
        .where("origin.flow_name = 'regions' AND level = 'METRICS' AND origin.update_id = '" + result.updateId() + "'")
        .select("details").first().getString(0);
    for (String figure : List.of("\"num_input_rows\":4", "\"dropped_records\":1", "\"keys_replaced\":1",
        "\"rows_inserted\":2", "\"rows_appended\":0", "\"rows_ignored_late\":1", "\"target_rows_removed\":2",
        "{\"name\":\"short_event\",\"dataset\":\"regions\",\"passed_records\":3,\"failed_records\":1}")) {
      assertTrue(details.contains(figure), figure + " in " + details);
    }
  }

  @Test
  void aFailExpectationCommitsNothingOfItsBatch() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions (CONSTRAINT known EXPECT (device IS NOT NULL) ON VIOLATION FAIL UPDATE)
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'a', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'iOS', 'b', 2), (2, NULL, 'c', 1)");
    UpdateResult result = p.run();
    assertFalse(result.succeeded());
    assertTrue(result.flows().get(0).errorMessage().orElseThrow().contains("expectation 'known'"));
    assertEquals(List.of("[1,iOS,a,1]"), p.rows("SELECT * FROM regions"), "key 1 not replaced: nothing of the batch committed");
  }

  @Test
  void aNullSequenceFailsTheUpdateNamingFlowAndColumn() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'a', 1), (2, 'iOS', 'b', NULL)");
    UpdateResult result = p.run();
    assertFalse(result.succeeded());
    String error = result.flows().get(0).errorMessage().orElseThrow();
    assertTrue(error.contains("REPLACE_USING_NULL_SEQUENCE") && error.contains("'regions'") && error.contains("seq"), error);
    assertEquals(List.of(), p.rows("SELECT * FROM regions"), "nothing of the batch is committed");

    // The fix the message suggests: a DROP ROW expectation; the failed batch then goes in without that row.
    assertTrue(error.contains("ON VIOLATION DROP ROW"), error);
    p.sql("""
        CREATE STREAMING TABLE regions (CONSTRAINT has_sequence EXPECT (seq IS NOT NULL) ON VIOLATION DROP ROW)
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    UpdateResult fixed = p.run();
    assertTrue(fixed.succeeded(), () -> fixed.flows().toString());
    assertEquals(List.of("[1,iOS,a,1]"), p.rows("SELECT * FROM regions"));
  }

  @Test
  void javaApiWithAStructSequenceBreakingTies() {
    TestPipeline p = pipeline("CREATE TEMPORARY VIEW unused AS SELECT 1 AS x;");
    p.libraries("- glob: {include: transformations/*.sql}", "- class: " + ReplaceUsingDefinitions.class.getName());
    insert(p, "(1, 'iOS', 'old', 1), (1, 'iOS', 'tie-low', 2)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'Android', 'tie-high', 2)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    // STRUCT(seq, device): at seq 2, 'iOS' > 'Android', so the stored row wins and the new one is late.
    assertEquals(List.of("[1,iOS,tie-low,2]"), p.rows("SELECT * FROM by_struct"));
  }

  @Test
  void replaceWhereReplacesARangeAndRefusesRowsOutsideIt() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE daily (day DATE, region_id INT, total BIGINT) PARTITIONED BY (day);
        CREATE FLOW recent AS INSERT INTO daily BY NAME
        REPLACE WHERE day >= DATE'2026-11-02'
        SELECT date_add(DATE'2026-11-01', seq) AS day, region_id, count(*) AS total FROM events GROUP BY 1, 2;
        """);
    insert(p, "(1, 'iOS', 'a', 1), (1, 'iOS', 'b', 2), (2, 'iOS', 'c', 2)");
    assertTrue(p.run().succeeded());
    p.spark().sql("INSERT INTO " + p.database() + ".daily VALUES (DATE'2026-11-01', 1, 100)");
    insert(p, "(2, 'iOS', 'd', 2)");
    assertTrue(p.run().succeeded());
    List<String> expected = List.of("[2026-11-01,1,100]", "[2026-11-02,1,1]", "[2026-11-03,1,1]", "[2026-11-03,2,2]");
    assertEquals(expected, p.rows("SELECT * FROM daily"));

    insert(p, "(3, 'iOS', 'too-old', 0)");
    UpdateResult refused = p.run();
    assertFalse(refused.succeeded());
    String error = refused.flows().get(0).errorMessage().orElseThrow();
    assertTrue(error.contains("REPLACE_WHERE_ROW_OUTSIDE_PREDICATE") && error.contains("2026-11-01"), error);
    assertEquals(expected, p.rows("SELECT * FROM daily"), "nothing written");
  }

  /** The predicate is checked on the rows as the table takes them: a column the query leaves out is NULL there. */
  @Test
  void replaceWhereRefusesRowsWithoutThePredicateColumnByName() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE by_region (region_id INT, total BIGINT);
        CREATE FLOW regional AS INSERT INTO by_region BY NAME
        REPLACE WHERE region_id = 1
        SELECT count(*) AS total FROM events;
        """);
    insert(p, "(1, 'iOS', 'a', 1)");
    UpdateResult refused = p.run();
    assertFalse(refused.succeeded());
    String error = refused.flows().get(0).errorMessage().orElseThrow();
    assertTrue(error.contains("REPLACE_WHERE_ROW_OUTSIDE_PREDICATE") && error.contains("\"total\":1}"), error);
    assertEquals(List.of(), p.rows("SELECT * FROM by_region"), "nothing written");
  }

  /**
   * A target whose features Sluice's own commit does not write (here row tracking) is written
   * with a MERGE, said once per run in the event log with the reason; so is every target when
   * {@code spark.sluice.keyedCommit.enabled} is false.
   */
  @Test
  void aTargetTheWriterCannotWriteTakesAMergeAndSaysWhy() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions TBLPROPERTIES ('delta.enableRowTracking' = 'true')
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        SET spark.sluice.keyedCommit.enabled = false;
        CREATE STREAMING TABLE regions_merged
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'click', 1), (2, 'iOS', 'click', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'desktop', 'view', 2), (1, 'iOS', 'view', 2), (2, 'Android', 'click', 1)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    List<String> expected = List.of("[1,desktop,view,2]", "[1,iOS,view,2]", "[2,Android,click,1]", "[2,iOS,click,1]");
    assertEquals(expected, p.rows("SELECT * FROM regions"));
    assertEquals(expected, p.rows("SELECT * FROM regions_merged"));
    List<String> said = p.spark().read().format("delta").load(p.root().resolve(".sluice/system/event_log").toString())
        .where("details LIKE '%keyed_write%'").select("message").as(Encoders.STRING()).collectAsList();
    assertEquals(2, said.size(), said::toString);
    assertTrue(said.stream().anyMatch(m -> m.contains("with MERGE: it has the table feature rowTracking")), said::toString);
    assertTrue(said.stream().anyMatch(m -> m.contains("with MERGE: spark.sluice.keyedCommit.enabled is false")),
        said::toString);
  }
}
