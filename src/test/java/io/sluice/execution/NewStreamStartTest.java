package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SparkJobs;
import io.sluice.testsupport.TestPipeline;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new stream over a Delta table that was only ever appended to reads the table's commits from
 * its first version instead of Delta's initial snapshot, so that neither its start nor its
 * restarts list the table's files; a table with a deleted or rewritten file is read from its
 * snapshot, as Delta does. Either way every row arrives exactly once.
 */
class NewStreamStartTest {
  @TempDir Path dir;

  @Test
  void aStreamOfAnAppendedTableStartsAtItsFirstVersionAndResumesFromThere() {
    TestPipeline p = pipelineOver("INSERT INTO %s VALUES (1)", "INSERT INTO %s VALUES (2), (3)")
        .write("transformations/copy.sql", "CREATE STREAMING TABLE copy AS SELECT id FROM STREAM(mirror);"); // a table of the pipeline, streamed
    assertEquals(List.of(), sourceJobs(p), "each first batch is cut from the commits, with no job");
    assertEquals(List.of("[1]", "[2]", "[3]"), p.rows("SELECT id FROM copy ORDER BY id"));

    p.spark().sql("INSERT INTO " + p.database() + ".outside VALUES (4)");
    assertEquals(List.of(), sourceJobs(p), "a restart reads its first batch's commits again, with no job");
    assertEquals(List.of("[1]", "[2]", "[3]", "[4]"), p.rows("SELECT id FROM mirror ORDER BY id"), "each row once");
    assertEquals(List.of("[1]", "[2]", "[3]", "[4]"), p.rows("SELECT id FROM copy ORDER BY id"), "each row once");
  }

  @Test
  void aTableWithADeleteOrACompactionIsReadFromItsSnapshot() {
    TestPipeline p = pipelineOver("INSERT INTO %s VALUES (1), (2)", "INSERT INTO %s VALUES (3)", "DELETE FROM %s WHERE id = 1",
        "INSERT INTO %s VALUES (4)", "OPTIMIZE %s");
    assertTrue(!sourceJobs(p).isEmpty(), "Delta lists the snapshot's files in jobs of its own");
    assertEquals(List.of("[2]", "[3]", "[4]"), p.rows("SELECT id FROM mirror ORDER BY id"), "the rows the table holds, once");

    p.spark().sql("INSERT INTO " + p.database() + ".outside VALUES (5)");
    p.run();
    assertEquals(List.of("[2]", "[3]", "[4]", "[5]"), p.rows("SELECT id FROM mirror ORDER BY id"));
  }

  /** A pipeline streaming {@code outside}, a Delta table outside it made by {@code statements} (each with %s for its name). */
  private TestPipeline pipelineOver(String... statements) {
    TestPipeline p = new TestPipeline(dir);
    String outside = p.database() + ".outside";
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + outside + " (id INT) USING delta");
    for (String statement : statements) {
      p.spark().sql(String.format(statement, outside));
    }
    return p.sql("CREATE STREAMING TABLE mirror AS SELECT id FROM STREAM(outside);");
  }

  /**
   * Runs an update and returns the Spark jobs its stream ran to read its source: those of a
   * batch ("batch = 0", or "batch = init" as Spark asks a restarted source for its last batch
   * again) that are not Sluice's own (which it labels "sluice: ...").
   */
  private static List<String> sourceJobs(TestPipeline p) {
    return SparkJobs.descriptions(p.spark(), p::run).stream()
        .filter(job -> job.matches("(?s).*batch = \\w+") && !job.contains("sluice:"))
        .toList();
  }
}
