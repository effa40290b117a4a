package io.sluice.execution;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.KernelReader;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every keyed kind's target, and every materialized view refreshed by replacing some of its rows,
 * is a plain Delta table: Delta Kernel, a reader independent of Delta's Spark connector (it comes
 * with delta-spark), reads exactly the rows Spark reads, after updates, deletes, late events,
 * deleted snapshot keys and {@code sluice maintain}.
 */
class KeyedTargetsKernelTest {
  private static final List<String> TARGETS = List.of("scd1", "scd2", "replaced", "snap1", "snap2", "by_name", "named");
  @TempDir Path dir;

  @Test
  void kernelReadsEveryKeyedTargetAsSparkDoes() {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE scd1;
        CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM STREAM(changes) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        CREATE STREAMING TABLE scd2;
        CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(changes) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;
        CREATE STREAMING TABLE replaced
        FLOW REPLACE USING (id) SEQUENCE BY seq BY NAME
        SELECT id, name, seq FROM STREAM(changes) WHERE op <> 'DELETE';
        CREATE STREAMING TABLE snap1;
        CREATE FLOW snap1_flow AS AUTO CDC INTO snap1 FROM SNAPSHOT snapshot_src KEYS (id);
        CREATE STREAMING TABLE snap2;
        CREATE FLOW snap2_flow AS AUTO CDC INTO snap2 FROM SNAPSHOT snapshot_src KEYS (id) STORED AS SCD TYPE 2;
        CREATE MATERIALIZED VIEW by_name REFRESH POLICY INCREMENTAL AS
        SELECT name, count(*) AS n, max(id) AS last FROM scd1 GROUP BY name;
        CREATE MATERIALIZED VIEW named REFRESH POLICY INCREMENTAL AS SELECT id, upper(name) AS name FROM scd1 WHERE id < 5;
        """);
    String db = p.database();
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + db);
    p.spark().sql("CREATE TABLE " + db + ".changes (id INT, name STRING, op STRING, seq INT) USING delta");
    p.spark().sql("CREATE TABLE " + db + ".snapshot_src (id INT, name STRING) USING delta");
    update(p, 1, "(1, 'a', 'UPSERT', 1), (2, 'b', 'UPSERT', 1), (3, 'c', 'UPSERT', 1), (4, 'd', 'UPSERT', 1)",
        "(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')", List.of("[1,a]", "[2,b]", "[3,c]", "[4,d]"));
    update(p, 2, "(1, 'a2', 'UPSERT', 2), (2, 'b2', 'UPSERT', 2), (3, null, 'DELETE', 2), (5, 'e', 'UPSERT', 2)",
        "(1, 'a2'), (2, 'b'), (4, 'd'), (5, 'e')", List.of("[1,a2]", "[2,b2]", "[4,d]", "[5,e]"));
    update(p, 3, "(2, 'late', 'UPSERT', 1), (4, 'd3', 'UPSERT', 3)", "(1, 'a2'), (2, 'b3'), (5, 'e')",
        List.of("[1,a2]", "[2,b2]", "[4,d3]", "[5,e]"));
    for (String target : TARGETS) {
      List<String> operations = p.spark().sql("DESCRIBE HISTORY " + db + "." + target).select("operation")
          .collectAsList().stream().map(Row::toString).toList();
      assertTrue(operations.stream().anyMatch(o -> o.contains("AUTO CDC") || o.contains("REPLACE USING")
          || o.contains("REFRESH MATERIALIZED VIEW")),
          () -> target + " had a keyed commit: " + operations);
    }
    assertKernelReadsAsSpark(p);
    IN_PROCESS.ok(p.root(), "maintain");
    assertKernelReadsAsSpark(p);
  }

  /** Lands changes and a snapshot, runs an update, and checks the SCD 1 target's rows after it. */
  private static void update(TestPipeline p, int number, String changes, String snapshot, List<String> scd1) {
    p.spark().sql("INSERT INTO " + p.database() + ".changes VALUES " + changes);
    p.spark().sql("INSERT OVERWRITE " + p.database() + ".snapshot_src VALUES " + snapshot);
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> "update " + number + ": " + result.flows());
    assertEquals(scd1, p.rows("SELECT * FROM scd1"), () -> "update " + number + ": " + result.flows()
        + "; changes: " + p.rows("SELECT * FROM changes"));
  }

  private static void assertKernelReadsAsSpark(TestPipeline p) {
    for (String target : TARGETS) {
      String table = p.database() + "." + target;
      Row detail = p.spark().sql("DESCRIBE DETAIL " + table).first();
      String location = detail.getString(detail.fieldIndex("location"));
      List<String> spark = KernelReader.spark(p.spark().table(table));
      assertEquals(spark, KernelReader.rows(location), target);
      assertTrue(!spark.isEmpty(), target);
    }
  }
}
