package io.sluice.e2e;

import static io.sluice.e2e.CrashRecoveryE2E.commits;
import static io.sluice.e2e.CrashRecoveryE2E.count;
import static io.sluice.e2e.CrashRecoveryE2E.findCheckpoint;
import static io.sluice.e2e.CrashRecoveryE2E.killWhen;
import static io.sluice.testsupport.JsonRows.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice run --continuous} as a user runs it (SEMANTICS §7.3, §10.1, §11.1): files landing
 * while it runs reach every table within a few intervals; {@code sluice query}, {@code sluice
 * events} and {@code sluice maintain} work beside it, while a second run and DDL are refused;
 * SIGTERM stops it cleanly (exit 0, the stop in the event log); after a SIGKILL the next
 * continuous run goes on, and every table ends exactly as an uninterrupted run would leave it,
 * the materialized view included.
 */
@Order(3) // among the longest end-to-end tests: taken first by the thread that works from the front (see the pom)
class ContinuousE2E {
  /** How long a run may take to stop once asked: a bound against a hang, not a measure of speed. */
  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(4);
  @TempDir Path dir;

  private EventFiles files;

  @Test
  void runsUntilStoppedAndResumesExactlyOnceAfterAKill() throws Exception {
    files = new EventFiles(PipelineFolder.create(dir, "always").spec("""
        name: always
        storage: .sluice
        configuration:
          pipelines.trigger.interval: 1 second
        libraries:
          - glob:
              include: "transformations/**/*.sql"
        """).sql("events.sql", EventFiles.SQL));
    files.land(1, 2);

    // 1st continuous run: takes files as they land; query, events, history, graph, report, dry-run and
    // maintain work beside it, a second run and DDL are refused.
    Sluice.Running first = Sluice.start(dir, "run", "--continuous", "--progress-every", "2");
    awaitOutput(first, "  totals +COMPLETED", 1);
    files.land(3, 3);
    awaitOutput(first, "round \\d+ wrote events_raw 2 rows, events_ok 2 rows, totals 2 rows", 1);
    assertEquals(files.totals(), rows(Sluice.PROCESS.query(dir, "SELECT kind, events, total FROM totals"),
        "kind", "events", "total"), "sluice query reads the view beside the run");
    Sluice.Running events = Sluice.start(dir, "events");
    Sluice.Running history = Sluice.start(dir, "history", "events_raw");
    Sluice.Running graph = Sluice.start(dir, "graph", "--format", "mermaid");
    Sluice.Running report = Sluice.start(dir, "report", "--out", dir.resolve("beside.html").toString());
    Sluice.Running dryRun = Sluice.start(dir, "dry-run");
    Sluice.Running maintain = Sluice.start(dir, "maintain", "--tables", "events_raw");
    Sluice.Running secondRun = Sluice.start(dir, "run");
    Sluice.Running drop = Sluice.start(dir, "query", "DROP TABLE events_raw");
    CommandResult listed = events.await(Sluice.TIMEOUT);
    assertEquals(0, listed.exit(), listed::toString);
    assertTrue(listed.stdout().contains("update is RUNNING") && listed.stdout().matches("(?s).*round \\d+ wrote events_raw.*"),
        () -> "the running update's events: " + listed);
    CommandResult commits = history.await(Sluice.TIMEOUT);
    assertEquals(0, commits.exit(), commits::toString);
    assertTrue(commits.stdout().startsWith("history of") && commits.stdout().matches("(?s).*\\d+ +\\S+ \\S+ +WRITE .*"),
        () -> "the table's commits beside the run: " + commits);
    CommandResult drawn = graph.await(Sluice.TIMEOUT);
    assertEquals(0, drawn.exit(), drawn::toString);
    assertTrue(drawn.stdout().contains("events_raw") && drawn.stdout().contains("totals"),
        () -> "the graph beside the run: " + drawn);
    CommandResult reported = report.await(Sluice.TIMEOUT);
    assertEquals(0, reported.exit(), reported::toString);
    String page = Files.readString(dir.resolve("beside.html"));
    assertTrue(page.contains("\"state-RUNNING\">RUNNING") && page.contains("events_raw"), "the report shows the running update");
    CommandResult validated = dryRun.await(Sluice.TIMEOUT);
    assertTrue(validated.exit() == 0 && validated.stdout().contains("is valid"), () -> "dry-run beside the run: " + validated);
    CommandResult maintained = maintain.await(Sluice.TIMEOUT);
    assertEquals(0, maintained.exit(), maintained::toString);
    assertTrue(maintained.stdout().contains("events_raw maintained: files"), maintained::toString);
    CommandResult second = secondRun.await(Sluice.TIMEOUT);
    assertTrue(second.exit() != 0 && second.errorLines().size() == 1
        && second.stderr().contains("is in use by sluice run (pid " + first.process.pid() + ", since "), second::toString);
    CommandResult dropped = drop.await(Sluice.TIMEOUT);
    assertTrue(dropped.exit() != 0 && dropped.errorLines().size() == 1
        && dropped.stderr().contains("while it runs, sluice query only reads"), dropped::toString);
    assertTrue(Files.isDirectory(dir.resolve(".sluice/warehouse/events_raw/_delta_log")), "nothing dropped");
    files.land(4, 4);
    awaitOutput(first, "round \\d+ wrote events_raw 2 rows, events_ok 2 rows, totals 2 rows", 2);
    assertTrue(first.process.isAlive(), "the continuous run goes on after sluice maintain");

    first.process.destroy();
    // Counted from the stop's request: a round in flight finishes first, which under a loaded machine
    // (the whole suite beside it) took more than a minute once.
    CommandResult stopped = first.await(STOP_TIMEOUT);
    assertEquals(0, stopped.exit(), stopped::toString);
    assertTrue(stopped.stdout().contains("CANCELED (stopped by SIGTERM after "), stopped.stdout());
    assertTrue(stopped.stdout().contains("running continuously for "), "the status line: " + stopped.stdout());
    CommandResult log = Sluice.PROCESS.ok(dir, "events");
    assertTrue(log.stdout().contains("update is CANCELED: stopped by SIGTERM"), log.stdout());

    // 2nd: killed with a batch of events_raw in flight.
    files.land(5, 12);
    Sluice.Running killed = Sluice.start(dir, "run", "--continuous");
    killWhen(killed, "a batch of events_raw in flight after 7 committed", () -> {
      Path cp = findCheckpoint(dir, "events_raw");
      return commits(cp) >= 7 && count(cp.resolve("offsets")) > commits(cp);
    });

    // 3rd: goes on from there; its first round takes every file left, and the view catches up. Ctrl-C stops it.
    Sluice.Running third = Sluice.start(dir, "run", "--continuous");
    awaitOutput(third, "  totals +COMPLETED", 1);
    new ProcessBuilder("kill", "-INT", String.valueOf(third.process.pid())).start().waitFor();
    CommandResult interrupted = third.await(STOP_TIMEOUT);
    assertEquals(0, interrupted.exit(), interrupted::toString);
    assertTrue(interrupted.stdout().contains("CANCELED (stopped by SIGINT after "), interrupted::toString);

    Map<String, List<JsonNode>> t = Sluice.PROCESS.tables(dir, "events_raw", "events_ok", "totals");
    assertEquals(files.raw(), rows(t.get("events_raw"), "id", "kind", "n", "file"), "events_raw: every row exactly once");
    assertEquals(files.ok(), rows(t.get("events_ok"), "id", "kind", "n"), "events_ok: every valid row exactly once");
    assertEquals(files.totals(), rows(t.get("totals"), "kind", "events", "total"));
  }

  /** Waits until the run's output has {@code times} lines matching {@code pattern}. */
  private static void awaitOutput(Sluice.Running run, String pattern, int times) throws Exception {
    Pattern line = Pattern.compile(pattern);
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (Files.readAllLines(run.stdout).stream().filter(l -> line.matcher(l).find()).count() < times) {
      if (!run.process.isAlive()) {
        fail("the continuous run ended before printing /" + pattern + "/\n" + run.finish(run.process.exitValue()));
      }
      if (System.nanoTime() > deadline) {
        fail("not within 3 minutes: /" + pattern + "/\n" + Files.readString(run.stdout));
      }
      Thread.sleep(100);
    }
  }
}
