package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.StoragePath;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optional clauses of AUTO CDC flows and their errors (SEMANTICS §4.1 to §4.6). */
class AutoCdcClausesTest {
  @TempDir Path dir;

  private TestPipeline pipeline(String sourceColumns, String definitions) {
    TestPipeline p = new TestPipeline(dir).sql(definitions);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    for (String table : sourceColumns.split(";")) {
      String[] parts = table.split(":", 2);
      p.spark().sql("CREATE TABLE " + p.database() + "." + parts[0] + " (" + parts[1] + ") USING delta");
    }
    return p;
  }

  private static void insert(TestPipeline p, String table, String values) {
    p.spark().sql("INSERT INTO " + p.database() + "." + table + " VALUES " + values);
  }

  private static UpdateResult runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    return result;
  }

  @Test
  void trackHistoryOnSomeColumnsAndIgnoreNullUpdates() {
    TestPipeline p = pipeline("cdc:id INT, name STRING, city STRING, op STRING, seq INT", """
        CREATE STREAMING TABLE hist;
        CREATE FLOW hist_flow AS AUTO CDC INTO hist FROM STREAM(cdc) KEYS (id) SEQUENCE BY seq
          COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (name);
        CREATE STREAMING TABLE keep_all;
        CREATE FLOW keep_all_flow AS AUTO CDC INTO keep_all FROM STREAM(cdc) KEYS (id)
          IGNORE NULL UPDATES SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        CREATE STREAMING TABLE keep_city;
        CREATE FLOW keep_city_flow AS AUTO CDC INTO keep_city FROM STREAM(cdc)
          COLUMNS id, name, city SEQUENCE BY seq IGNORE NULL UPDATES ON (city) KEYS (id);
        """);
    insert(p, "cdc", "(1, 'Ann', 'Rome', 'U', 1), (1, 'Anna', 'Rome', 'U', 2), (1, 'Anna', 'Milan', 'U', 3), "
        + "(2, 'Bob', 'Oslo', 'U', 1)");
    runOk(p);
    insert(p, "cdc", "(2, NULL, 'Bergen', 'U', 2), (1, 'Anne', NULL, 'U', 4)");
    runOk(p);
    assertEquals(List.of(
            "[1,Anna,Milan,3,4]", "[1,Anna,Rome,1,3]", "[1,Anne,null,4,null]",
            "[2,Bob,Oslo,1,2]", "[2,null,Bergen,2,null]"),
        p.rows("SELECT * FROM hist"), "a change of name alone updates the open version in place");
    assertEquals(List.of("[1,Anne,Milan]", "[2,Bob,Bergen]"), p.rows("SELECT * FROM keep_all"));
    assertEquals(List.of("[1,Anne,Milan]", "[2,null,Bergen]"), p.rows("SELECT * FROM keep_city"));
  }

  @Test
  void truncateEmptiesTheTableAndStructSequencesOrderByEachField() {
    TestPipeline p = pipeline("ops:id INT, v STRING, op STRING, day INT, n INT", """
        CREATE STREAMING TABLE t;
        CREATE FLOW t_flow AS AUTO CDC INTO t FROM STREAM(ops) KEYS (id)
          APPLY AS TRUNCATE WHEN op = 'TRUNCATE' APPLY AS DELETE WHEN op = 'DELETE'
          SEQUENCE BY STRUCT(day, n) COLUMNS id, v;
        """);
    insert(p, "ops", "(1, 'a', 'U', 1, 1), (2, 'b', 'U', 1, 2), (1, 'a2', 'U', 1, 10), (2, 'b-late', 'U', 1, 1)");
    runOk(p);
    assertEquals(List.of("[1,a2]", "[2,b]"), p.rows("SELECT * FROM t"));
    insert(p, "ops", "(NULL, NULL, 'TRUNCATE', 2, 0), (3, 'c', 'U', 2, 5), (4, 'before-truncate', 'U', 1, 20)");
    runOk(p);
    assertEquals(List.of("[3,c]"), p.rows("SELECT * FROM t"));
    insert(p, "ops", "(5, 'late', 'U', 1, 30), (1, 'z', 'U', 3, 0)");
    UpdateResult result = runOk(p);
    assertEquals(List.of("[1,z]", "[3,c]"), p.rows("SELECT * FROM t"), "events older than the truncate stay void");
    assertEquals(1L, result.flows().get(0).kindMetrics().get("num_ignored_events"));
  }

  @Test
  void tombstonesExpireAfterTheirThreshold() throws Exception {
    String flow = """
        CREATE STREAMING TABLE %s %s;
        CREATE FLOW %s_flow AS AUTO CDC INTO %s FROM STREAM(cdc) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        """;
    TestPipeline p = pipeline("cdc:id INT, v STRING, op STRING, seq INT",
        flow.formatted("quick", "TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '1')", "quick", "quick")
            + flow.formatted("kept", "", "kept", "kept"));
    insert(p, "cdc", "(1, 'a', 'U', 1), (1, NULL, 'DELETE', 5)");
    runOk(p);
    Thread.sleep(2_000);
    insert(p, "cdc", "(1, 'late', 'U', 3)");
    runOk(p); // forgets the expired tombstone before its batch
    assertEquals(List.of("[1,late]"), p.rows("SELECT * FROM quick"), "the expired tombstone let the late upsert in");
    assertEquals(List.of(), p.rows("SELECT * FROM kept"), "the default two days keep the delete");
  }

  @Test
  void theStateIsCompactedToTheEventsThatStillDecide() {
    TestPipeline p = pipeline("cdc:id INT, v STRING, op STRING, seq INT", """
        CREATE STREAMING TABLE t TBLPROPERTIES ('pipelines.cdc.stateCompactionInterval' = '2');
        CREATE FLOW t_flow AS AUTO CDC INTO t FROM STREAM(cdc) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        """);
    insert(p, "cdc", "(1, 'a', 'U', 1), (2, 'b', 'U', 1)");
    runOk(p);
    insert(p, "cdc", "(1, 'a2', 'U', 2), (2, NULL, 'DELETE', 2)");
    runOk(p); // the state's second commit: compacted after the batch
    StoragePath state = new Checkpoints(StoragePath.root(p.spark(), p.spec().storage())).autoCdcState(
        new io.sluice.graph.DatasetName("spark_catalog", p.database(), "t"));
    assertEquals(List.of("[1,2,U]", "[2,2,D]"), p.spark().read().format("delta").load(state.toString())
            .selectExpr("id", "__sluice_seq", "__sluice_op").collectAsList().stream().map(Object::toString).sorted().toList(),
        "one event per key: the upsert and the tombstone that decide");
    insert(p, "cdc", "(1, 'late', 'U', 1), (2, 'late', 'U', 1), (3, 'c', 'U', 1)");
    UpdateResult result = runOk(p);
    assertEquals(List.of("[1,a2]", "[3,c]"), p.rows("SELECT * FROM t"), "late events stay ignored after compaction");
    assertEquals(2L, result.flows().get(0).kindMetrics().get("num_ignored_events"));
  }

  @Test
  void nullKeysAndSequencesFailTheFlowAndApplyNothing() {
    TestPipeline p = pipeline("a:id INT, v STRING, seq INT;b:id INT, v STRING, seq INT;c:id INT, v STRING, day INT, n INT",
        """
        CREATE STREAMING TABLE ta;
        CREATE FLOW ta_flow AS AUTO CDC INTO ta FROM STREAM(a) KEYS (id) SEQUENCE BY seq;
        CREATE STREAMING TABLE tb;
        CREATE FLOW tb_flow AS AUTO CDC INTO tb FROM STREAM(b) KEYS (id) SEQUENCE BY seq;
        CREATE STREAMING TABLE tc;
        CREATE FLOW tc_flow AS AUTO CDC INTO tc FROM STREAM(c) KEYS (id) SEQUENCE BY STRUCT(day, n);
        """);
    insert(p, "a", "(1, 'x', 1), (NULL, 'no key', 2)");
    insert(p, "b", "(1, 'x', 1), (2, 'no sequence', NULL)");
    insert(p, "c", "(1, 'x', 1, 1), (2, 'no n', 1, NULL)");
    UpdateResult result = p.run();
    assertFalse(result.succeeded());
    String a = result.flows().get(0).errorMessage().orElseThrow();
    String b = result.flows().get(1).errorMessage().orElseThrow();
    String c = result.flows().get(2).errorMessage().orElseThrow();
    assertTrue(a.contains("AUTO CDC flow 'ta_flow'") && a.contains("KEYS (id) is NULL") && a.contains("no key"), a);
    assertTrue(b.contains("AUTO CDC flow 'tb_flow'") && b.contains("SEQUENCE BY") && b.contains("no sequence"), b);
    assertTrue(c.contains("AUTO CDC flow 'tc_flow'") && c.contains("has a NULL field") && c.contains("no n"), c);
    assertEquals(List.of(), p.rows("SELECT * FROM ta"));
    assertEquals(List.of(), p.rows("SELECT * FROM tb"));
    assertEquals(List.of(), p.rows("SELECT * FROM tc"));
  }
}
