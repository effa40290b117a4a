package io.sluice.e2e;

import static io.sluice.testsupport.JsonRows.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across a crash (SEMANTICS §7.1): a run that reads one file per micro-batch
 * is killed with SIGKILL while a batch is in flight, after the first batches committed;
 * the next run is killed too, once the bronze table is done and the downstream flows run;
 * the third run must leave every table exactly as an uninterrupted run would. A fourth run is
 * killed as the materialized view's incremental refresh starts; the fifth finishes it, once.
 */
@Order(4) // among the longest end-to-end tests: taken first by the thread that works from the front (see the pom)
class CrashRecoveryE2E {
  static final int FILES = 8;

  @TempDir Path dir;

  @Test
  void twoSigkilledRunsThenACompleteOneGiveExactlyTheUninterruptedResult() throws Exception {
    EventFiles files = new EventFiles(PipelineFolder.create(dir, "crash").sql("events.sql", EventFiles.SQL));
    files.land(1, FILES);

    // 1st run: killed while a batch of events_raw is in flight, after three committed.
    Sluice.Running first = Sluice.start(dir, "run");
    boolean java = isJava(first.process);
    if (!java) {
      first.process.destroyForcibly();
    }
    assertTrue(java, "bin/sluice execs the JVM, so its pid is the JVM's and SIGKILL reaches the JVM itself");
    killWhen(first, "a batch of events_raw in flight after 3 committed", () -> {
      Path cp = findCheckpoint(dir, "events_raw");
      return cp != null && commits(cp) >= 3 && count(cp.resolve("offsets")) > commits(cp);
    });
    Path rawCheckpoint = findCheckpoint(dir, "events_raw");
    assertTrue(commits(rawCheckpoint) < FILES, "the first run was cut short");
    // Its events are not lost with it (§7.4): each committed batch's, then how it ended.
    CommandResult events = Sluice.PROCESS.ok(dir, "events");
    for (int batch = 0; batch < 3; batch++) {
      assertTrue(events.stdout().matches("(?s).*events_raw +batch " + batch + ": 2 rows written.*"), events.stdout());
    }
    assertTrue(events.stdout().contains("ended without finishing: its process stopped (killed or crashed)"), events.stdout());

    // 2nd run: resumes, and is killed as soon as events_raw is done, while the downstream
    // streaming table and the materialized view are being updated.
    Sluice.Running second = Sluice.start(dir, "run");
    killWhen(second, "events_raw done, downstream flows running", () -> commits(rawCheckpoint) >= FILES);

    // 3rd run: completes.
    Sluice.PROCESS.ok(dir, "run");

    Map<String, List<JsonNode>> t = Sluice.PROCESS.tables(dir, "events_raw", "events_ok", "totals");
    assertEquals(files.raw(), rows(t.get("events_raw"), "id", "kind", "n", "file"), "events_raw: every row exactly once");
    assertEquals(files.ok(), rows(t.get("events_ok"), "id", "kind", "n"), "events_ok: every valid row exactly once");
    assertEquals(files.totals(), rows(t.get("totals"), "kind", "events", "total"));

    // 4th run: one more file; killed once the view's incremental refresh is planned, before its commit (§7.2.1).
    files.land(FILES + 1, FILES + 1);
    Path totalsLog = deltaLog(dir, "totals");
    int totalsVersions = count(totalsLog, "\\d{20}\\.json");
    Sluice.Running fourth = Sluice.start(dir, "run");
    killWhen(fourth, "the refresh of totals planned", () -> read(fourth.stdout).matches("(?s).*totals +refresh: GROUP_AGGREGATE.*"));
    assertEquals(totalsVersions, count(totalsLog, "\\d{20}\\.json"), "killed before the refresh's commit");

    // 5th run: refreshes from the versions the view last committed, counting the new rows once.
    Sluice.PROCESS.ok(dir, "run");
    assertEquals(files.totals(), rows(Sluice.PROCESS.tables(dir, "totals").get("totals"), "kind", "events", "total"));
  }

  /**
   * REPLACE USING under SIGKILL (SEMANTICS §7.1 with §2): rows appended on an equal sequence
   * must not be appended twice when the batch is replayed.
   */
  @Test
  void replaceUsingEqualSequenceAppendsSurviveASigkill() throws Exception {
    PipelineFolder pipeline = PipelineFolder.create(dir, "crash_replace")
        .sql("latest.sql", """
            CREATE STREAMING TABLE latest
            FLOW REPLACE USING (k) SEQUENCE BY seq BY NAME
            SELECT * EXCEPT (_rescued_data) FROM STREAM read_files('landing', format => 'json',
              schema => 'k INT, seq INT, tag INT', maxFilesPerTrigger => '1');
            """);
    int files = 10;
    List<String> expected = new ArrayList<>();
    for (int i = 1; i <= files; i++) {
      // Key 1: one sequence for ever, every batch appends. Key 2: newer each time. Key 3: older each time.
      pipeline.json(String.format("landing/batch-%02d.json", i),
          "{\"k\": 1, \"seq\": 1, \"tag\": " + i + "}",
          "{\"k\": 2, \"seq\": " + i + ", \"tag\": " + i + "}",
          "{\"k\": 3, \"seq\": " + (files + 1 - i) + ", \"tag\": " + i + "}");
      expected.add("1|1|" + i);
    }
    expected.add("2|" + files + "|" + files);
    expected.add("3|" + files + "|1");

    Sluice.Running run = Sluice.start(dir, "run");
    assertTrue(isJava(run.process), "bin/sluice execs the JVM");
    killWhen(run, "a batch of latest in flight after 2 committed", () -> {
      Path cp = findCheckpoint(dir, "latest");
      return cp != null && commits(cp) >= 2 && count(cp.resolve("offsets")) > commits(cp);
    });
    assertTrue(commits(findCheckpoint(dir, "latest")) < files, "the run was cut short");
    Sluice.PROCESS.ok(dir, "run");

    Map<String, List<JsonNode>> t = Sluice.PROCESS.tables(dir, "latest");
    assertEquals(expected.stream().sorted().toList(), rows(t.get("latest"), "k", "seq", "tag"),
        "every equal-sequence row exactly once, the newest row of key 2, the first row of key 3");
  }

  /** Kills the run with SIGKILL as soon as {@code condition} holds (polled every 10 ms). */
  static void killWhen(Sluice.Running run, String what, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
    try {
      awaitCondition(run, what, condition, deadline);
    } finally {
      run.process.destroyForcibly();
    }
    int exit = run.process.waitFor();
    CommandResult killed = run.finish(exit);
    System.out.println("[e2e] killed: " + what);
    assertEquals(128 + 9, exit, () -> "killed by SIGKILL (exit 137): " + killed);
  }

  private static void awaitCondition(Sluice.Running run, String what, BooleanSupplier condition, long deadline)
      throws InterruptedException {
    while (!condition.getAsBoolean()) {
      if (!run.process.isAlive()) {
        fail("the run ended before it could be killed (" + what + ")\n" + run.finish(run.process.exitValue()));
      }
      if (System.nanoTime() > deadline) {
        fail("never reached within 4 minutes: " + what);
      }
      Thread.sleep(10);
    }
  }

  /** The checkpoint folder of the flow named {@code flow}: a folder of that name under .sluice/checkpoints. */
  static Path findCheckpoint(Path pipeline, String flow) {
    Path root = pipeline.resolve(".sluice/checkpoints");
    if (!Files.isDirectory(root)) {
      return null;
    }
    try (Stream<Path> paths = Files.walk(root, 2)) {
      return paths.filter(p -> p.getNameCount() - root.getNameCount() == 2 && p.getFileName().toString().equals(flow))
          .findFirst().orElse(null);
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }

  static int commits(Path checkpoint) {
    return count(checkpoint.resolve("commits"));
  }

  /** The Delta log folder of the pipeline's table {@code table}. */
  private static Path deltaLog(Path pipeline, String table) throws IOException {
    try (Stream<Path> paths = Files.walk(pipeline.resolve(".sluice/warehouse"))) {
      return paths.filter(p -> p.getFileName().toString().equals("_delta_log") && p.getParent().getFileName().toString().equals(table))
          .findFirst().orElseThrow(() -> new AssertionError("no table " + table));
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Files named by a batch number in a checkpoint folder (Spark also leaves .crc and temp files). */
  static int count(Path folder) {
    return count(folder, "\\d+");
  }

  /** Files of {@code folder} whose names match {@code name}. */
  private static int count(Path folder, String name) {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return (int) files.filter(f -> f.getFileName().toString().matches(name)).count();
    } catch (IOException e) {
      if (e instanceof java.nio.file.NoSuchFileException) {
        return 0;
      }
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the process is the JVM itself (bin/sluice ends with exec java). */
  static boolean isJava(Process process) throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      String command = process.info().command().orElse("");
      if (command.endsWith("/java")) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }
}
