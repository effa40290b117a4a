package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testing.CommandResult;
import io.sluice.testing.JsonRows;
import io.sluice.testing.PipelineFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two concurrent updates of one pipeline: the second refuses to start (SEMANTICS §7.3); while
 * the first runs, {@code sluice query} and {@code sluice events} read, and DDL is refused.
 */
class ConcurrentRunE2E {
  @TempDir Path dir;

  @Test
  void secondRunRefusesWhileTheFirstCompletes() throws Exception {
    PipelineFolder pipeline = PipelineFolder.create(dir, "busy")
        .sql("t.sql", """
            CREATE OR REFRESH STREAMING TABLE items
            AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT',
              maxFilesPerTrigger => '1');
            """);
    for (int i = 1; i <= 30; i++) {
      pipeline.json("landing/items-" + i + ".json", "{\"id\": " + i + "}");
    }

    Sluice.Running first = Sluice.start(dir, "run");
    try {
      // The first run holds the pipeline from before its Spark session starts; once its flow
      // has a checkpoint it is certainly inside the update.
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (!Files.isDirectory(dir.resolve(".sluice/checkpoints"))) {
        if (!first.process.isAlive() || System.nanoTime() > deadline) {
          fail("the first run did not get going: " + first.await(Duration.ofMinutes(1)));
        }
        Thread.sleep(20);
      }

      Sluice.Running secondRun = Sluice.start(dir, "run");
      Sluice.Running count = Sluice.start(dir, "query", "--format", "json", "SELECT count(*) AS n FROM items");
      Sluice.Running events = Sluice.start(dir, "events");
      Sluice.Running drop = Sluice.start(dir, "query", "DROP TABLE items");
      CommandResult second = secondRun.await(Sluice.TIMEOUT);
      CommandResult counted = count.await(Sluice.TIMEOUT);
      CommandResult listed = events.await(Sluice.TIMEOUT);
      CommandResult dropped = drop.await(Sluice.TIMEOUT);
      assertTrue(first.process.isAlive(), "the first run was still going when the others ended");

      // Reading goes on beside the update, on each table as of its latest commit (SEMANTICS §10, issue 13).
      assertEquals(0, counted.exit(), counted::toString);
      long n = JsonRows.parseLines(counted.stdout()).get(0).get("n").asLong();
      assertTrue(n >= 0 && n < 30, "items as of a commit of the running update: " + n);
      assertEquals(0, listed.exit(), listed::toString);
      assertTrue(listed.stdout().contains("update is RUNNING"), () -> "the running update's events: " + listed);
      assertTrue(dropped.exit() != 0 && dropped.errorLines().size() == 1
          && dropped.stderr().contains("while it runs, sluice query only reads"), dropped::toString);
      assertTrue(Files.isDirectory(dir.resolve(".sluice/warehouse/items/_delta_log")), "nothing dropped");

      assertTrue(second.exit() != 0, () -> "the second run must refuse: " + second);
      assertTrue(second.stderr().contains("is in use by sluice run (pid " + first.process.pid() + ", since "), () -> "a clear message naming the holder: " + second);
      assertEquals(1, second.errorLines().size(), () -> "one line: " + second);

      CommandResult firstResult = first.await(Sluice.TIMEOUT);
      assertEquals(0, firstResult.exit(), () -> "the first run completes: " + firstResult);
      assertTrue(firstResult.stdout().contains("COMPLETED"), firstResult::toString);
    } finally {
      first.process.destroyForcibly();
    }
  }
}
