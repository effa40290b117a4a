package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testing.CommandResult;
import io.sluice.testing.PipelineFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two concurrent updates of one pipeline: the second refuses to start (SEMANTICS §7.3). */
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
    for (int i = 1; i <= 8; i++) {
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

      CommandResult second = Sluice.PROCESS.run(dir, "run");
      assertTrue(first.process.isAlive(), "the first run was still going when the second one ended");
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
