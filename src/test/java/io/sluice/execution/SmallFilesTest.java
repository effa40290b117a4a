package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.TestPipeline;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming tables written in small batches stay compact with no command run: after a flow's run
 * leaves enough small files, they are rewritten into one, appended and keyed targets alike,
 * without changing a row, and said in the event log; a table that turns automatic maintenance
 * off keeps every batch's file.
 */
class SmallFilesTest {
  @TempDir Path dir;

  @Test
  void smallBatchesAreCompactedUnlessTheTableSaysNo() {
    TestPipeline p = new TestPipeline(dir);
    for (int i = 0; i < 8; i++) {
      p.write("landing/" + i + ".json", "{\"id\": " + (i % 3) + ", \"seq\": " + i + "}\n");
    }
    // Due at four small files (50 by default), so that a few batches show it.
    p.sql("""
        SET spark.sluice.smallFiles.compactAt = 4;
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json',
          schema => 'id INT, seq INT', maxFilesPerTrigger => 1);
        CREATE STREAMING TABLE latest FLOW REPLACE USING (id) SEQUENCE BY seq BY NAME SELECT id, seq FROM STREAM(raw);
        CREATE STREAMING TABLE kept TBLPROPERTIES ('pipelines.autoOptimize.managed' = 'false')
        AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, seq INT', maxFilesPerTrigger => 1);
        """);
    assertTrue(p.run().succeeded());

    assertEquals(1, compactions(p, "raw"), "raw's eight one-row batches were compacted once, after its run");
    assertEquals(1, files(p, "raw"));
    assertEquals(List.of("[8]"), p.rows("SELECT count(*) FROM raw"), "compaction changes no row");
    assertEquals(0, compactions(p, "kept"), "a table that turns automatic maintenance off is left as written");
    assertEquals(8, files(p, "kept"));
    assertEquals(List.of("[0,6]", "[1,7]", "[2,5]"), p.rows("SELECT id, seq FROM latest"));
    assertEquals(List.of("[compacted 8 small files of 'raw' into 1]"), p.rows("SELECT message FROM delta.`"
        + dir.resolve(".sluice/system/event_log") + "` WHERE message LIKE '%compacted%raw%'").stream()
        .map(m -> m.replace("flow 'raw': ", "")).toList(), "said in the event log");

    p.write("landing/8.json", "{\"id\": 1, \"seq\": 9}\n");
    assertTrue(p.run().succeeded());
    assertEquals(1, compactions(p, "raw"), "two small files are not enough");
    assertEquals(List.of("[0,6]", "[1,9]", "[2,5]"), p.rows("SELECT id, seq FROM latest"));
  }

  private static long compactions(TestPipeline p, String table) {
    return p.spark().sql("DESCRIBE HISTORY " + p.database() + "." + table).where("operation = 'OPTIMIZE'").count();
  }

  private static long files(TestPipeline p, String table) {
    return p.spark().sql("DESCRIBE DETAIL " + p.database() + "." + table).first().<Long>getAs("numFiles");
  }
}
