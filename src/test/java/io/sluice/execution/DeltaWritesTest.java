package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding a batch's commit by its tag in a real Delta table's log, and what happens when the log lost it. */
class DeltaWritesTest {
  private final SparkSession spark = SharedSpark.session();

  @TempDir Path dir;

  @Test
  void aTaggedCommitIsFoundFromTheVersionBeforeIt() {
    DeltaTarget table = tableWithTaggedCommits();
    assertEquals(2, DeltaWrites.commitOf(spark, table, new CommitTag("app", 1), 1));
    assertEquals(-1, DeltaWrites.commitOf(spark, table, new CommitTag("app", 3), 1), "a batch that never committed");
    assertEquals(-1, DeltaWrites.commitOf(spark, table, new CommitTag("other", 1), 0), "another flow's tag");
  }

  @Test
  void aLogThatNoLongerHoldsTheVersionFailsWithTheFix() throws IOException {
    DeltaTarget table = tableWithTaggedCommits();
    Files.delete(dir.resolve("t/_delta_log/00000000000000000001.json"));
    DeltaLog.clearCache();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> DeltaWrites.commitOf(spark, table, new CommitTag("app", 1), 1));
    assertTrue(e.getMessage().contains("no longer holds version 1") && e.getMessage().contains("full refresh"),
        e.getMessage());
  }

  /** Versions 0 (create), 1 (untagged), 2 (batch 1 of "app"), 3 (batch 2 of "app"). */
  private DeltaTarget tableWithTaggedCommits() {
    String path = dir.resolve("t").toString();
    spark.range(1).write().format("delta").save(path);
    spark.range(1).write().format("delta").mode("append").save(path);
    for (long batch = 1; batch <= 2; batch++) {
      DeltaWrites.tagged(spark, new CommitTag("app", batch),
          () -> spark.range(1).write().format("delta").mode("append").save(path));
    }
    return DeltaTarget.location(dir.resolve("t").toString());
  }
}
