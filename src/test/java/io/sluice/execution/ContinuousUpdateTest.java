package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.eventlog.FlowState;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.StopSignal;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous update (SEMANTICS §10.1) takes new input as it lands, recomputes a materialized
 * view only after its input committed, stops when asked, and the next update goes on from there.
 */
class ContinuousUpdateTest {
  @TempDir Path dir;

  private static FlowOutcome flow(UpdateResult result, String dataset) {
    return result.flows().stream().filter(f -> f.dataset().equals(dataset)).findFirst().orElseThrow();
  }

  @Test
  void takesInputAsItLandsAndStopsWhenAsked() throws Exception {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1}\n{\"id\": 2}\n")
        .sql("""
            CREATE STREAMING TABLE raw TBLPROPERTIES ('pipelines.trigger.interval' = '300 milliseconds')
            AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
            CREATE MATERIALIZED VIEW total TBLPROPERTIES ('pipelines.trigger.interval' = '300 ms')
            AS SELECT count(*) AS n, sum(id) AS s FROM raw;
            """);
    StopSignal stop = new StopSignal();
    CompletableFuture<UpdateResult> running = CompletableFuture.supplyAsync(
        () -> PipelineUpdate.run(p.spark(), p.spec(), UpdateOptions.DEFAULT.continuously(), stop, List.of()));

    waitFor(() -> p.rows("SELECT n, s FROM total").equals(List.of("[2,3]")), running);
    long totalCommits = p.spark().sql("DESCRIBE HISTORY " + p.database() + ".total").count();
    Thread.sleep(1500);
    assertEquals(totalCommits, p.spark().sql("DESCRIBE HISTORY " + p.database() + ".total").count(),
        "rounds without new input do not recompute the view");

    p.write("landing/b.json", "{\"id\": 10}\n");
    waitFor(() -> p.rows("SELECT n, s FROM total").equals(List.of("[3,13]")), running);

    stop.request("the test");
    UpdateResult result = running.get();
    assertEquals("CANCELED", result.state());
    assertTrue(result.succeeded());
    assertTrue(result.rounds() > 3, "rounds: " + result.rounds());
    assertEquals(2, flow(result, "raw").batches());
    assertEquals(3, flow(result, "raw").rowsWritten());
    assertEquals(2, flow(result, "total").batches());
    assertEquals(FlowState.COMPLETED, flow(result, "raw").state());
    assertEquals(List.of("[update is CANCELED: stopped by the test; the next update goes on where this one stopped]"),
        p.rows("SELECT message FROM delta.`" + dir.resolve(".sluice/system/event_log") + "` WHERE message LIKE 'update is CANCELED%'"));
    assertEquals(List.of("[1]"), p.rows("SELECT count(*) FROM delta.`" + dir.resolve(".sluice/system/event_log")
        + "` WHERE message LIKE 'round % wrote raw 1 rows, total 1 rows%'"), "the round that took b.json says what it wrote");

    p.write("landing/c.json", "{\"id\": 100}\n");
    UpdateResult next = p.run();
    assertEquals(1, flow(next, "raw").rowsWritten(), "the next update goes on where the stopped one ended");
    assertEquals(List.of("[4,113]"), p.rows("SELECT count(*), sum(id) FROM raw"), "every row once");
  }

  /** Whether the condition holds; not yet if what it reads does not exist yet. */
  private static boolean holds(Supplier<Boolean> condition) {
    try {
      return condition.get();
    } catch (Exception notYet) {
      return false;
    }
  }

  private static void waitFor(Supplier<Boolean> condition, CompletableFuture<UpdateResult> running) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (!holds(condition)) {
      if (running.isDone()) {
        throw new AssertionError("the continuous update ended: " + running.get().state());
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("not within 60 s");
      }
      Thread.sleep(200);
    }
  }
}
