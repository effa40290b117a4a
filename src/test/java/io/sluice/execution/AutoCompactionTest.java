package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.TestPipeline;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming tables written in small batches stay compact with no command run: Delta's auto
 * compaction merges their small files after a batch's commit, appends and keyed writes alike,
 * without changing a row; a table whose definition turns it off keeps every batch's files.
 */
class AutoCompactionTest {
  @TempDir Path dir;

  @Test
  void smallBatchesAreCompactedUnlessTheTableSaysNo() {
    TestPipeline p = new TestPipeline(dir);
    for (int i = 0; i < 8; i++) {
      p.write("landing/" + i + ".json", "{\"id\": " + (i % 3) + ", \"seq\": " + i + "}\n");
    }
    // Compaction once four small files wait (Delta's default: 50), so that a few batches show it.
    p.sql("""
        SET spark.databricks.delta.autoCompact.minNumFiles = 4;
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json',
          schema => 'id INT, seq INT', maxFilesPerTrigger => 1);
        CREATE STREAMING TABLE latest FLOW REPLACE USING (id) SEQUENCE BY seq BY NAME SELECT id, seq FROM STREAM(raw);
        CREATE STREAMING TABLE kept TBLPROPERTIES ('pipelines.autoOptimize.managed' = 'false')
        AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, seq INT', maxFilesPerTrigger => 1);
        """);
    assertTrue(p.run().succeeded());

    assertTrue(compactions(p, "raw") > 0, "raw's one-row batches were compacted");
    assertTrue(files(p, "raw") < 8, "raw holds fewer files than batches: " + files(p, "raw"));
    assertEquals(List.of("[8]"), p.rows("SELECT count(*) FROM raw"), "compaction changes no row");
    assertEquals(0, compactions(p, "kept"), "a table that turns automatic maintenance off is left as written");
    assertEquals(8, files(p, "kept"));
    assertEquals(List.of("[0,6]", "[1,7]", "[2,5]"), p.rows("SELECT id, seq FROM latest"));
    assertTrue(compactions(p, "latest") > 0, "the keyed target was compacted too");
  }

  private static long compactions(TestPipeline p, String table) {
    return p.spark().sql("DESCRIBE HISTORY " + p.database() + "." + table).where("operation = 'OPTIMIZE'").count();
  }

  private static long files(TestPipeline p, String table) {
    return p.spark().sql("DESCRIBE DETAIL " + p.database() + "." + table).first().<Long>getAs("numFiles");
  }
}
