package io.sluice.e2e;

import static io.sluice.e2e.CrashRecoveryE2E.commits;
import static io.sluice.e2e.CrashRecoveryE2E.count;
import static io.sluice.e2e.CrashRecoveryE2E.findCheckpoint;
import static io.sluice.e2e.CrashRecoveryE2E.isJava;
import static io.sluice.e2e.CrashRecoveryE2E.killWhen;
import static io.sluice.testsupport.JsonRows.rows;
import static io.sluice.testsupport.JsonRows.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.Events;
import io.sluice.testsupport.JsonRows;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AUTO CDC flows driven through {@code bin/sluice} (SEMANTICS §4): SCD type 1 and 2 targets
 * that must survive a SIGKILL in the middle of their batches (§7.1). The shipped example is
 * checked in the test JVM ({@code io.sluice.cli.AutoCdcExampleTest}).
 */
class AutoCdcE2E {
  @TempDir Path dir;

  static final int KEYS = 12;
  // One file per micro-batch. An AUTO CDC batch costs seconds on a loaded 2-core machine, so
  // the stream is kept short: 4 batches of each flow, killed after 2 of the 8 committed.
  static final int FILES = 4;

  /**
   * §7.1 with §4.3 and §4.6: one stream of seeded random upserts and deletes, one file per
   * micro-batch, out of order and with a few events delivered twice, into an SCD 1 and an
   * SCD 2 target. The run is killed with SIGKILL while batches are in flight; the rerun must
   * leave both tables equal to replaying all events in sequence order. A further run with
   * no new files changes nothing.
   */
  @Test
  void sigkilledAutoCdcRunRecoversToTheReplayOfAllEvents() throws Exception {
    PipelineFolder pipeline = PipelineFolder.create(dir, "crash_cdc")
        .sql("cdc.sql", """
            CREATE TEMPORARY VIEW changes
            AS SELECT * EXCEPT (_rescued_data) FROM STREAM read_files('landing', format => 'json',
              schema => 'k INT, a STRING, b INT, op STRING, seq INT', maxFilesPerTrigger => '1');

            CREATE STREAMING TABLE scd1;
            CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM STREAM(changes)
            KEYS (k) APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq
            COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 1;

            CREATE STREAMING TABLE scd2;
            CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(changes)
            KEYS (k) APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq
            COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;
            """);
    List<Event> events = randomEvents(new Random(20261129L));
    for (int f = 0; f < FILES; f++) {
      int file = f;
      pipeline.json(String.format("landing/changes-%02d.json", f + 1),
          events.stream().filter(e -> e.file == file).map(Event::json).toArray(String[]::new));
    }
    List<String> scd1 = scd1(events);
    List<String> scd2 = scd2(events);

    Sluice.Running run = Sluice.start(dir, "run");
    assertTrue(isJava(run.process), "bin/sluice execs the JVM, so SIGKILL reaches the JVM itself");
    killWhen(run, "a batch of an AUTO CDC flow in flight after 2 committed", () -> {
      Path cp1 = findCheckpoint(dir, "scd1_flow");
      Path cp2 = findCheckpoint(dir, "scd2_flow");
      int committed = (cp1 == null ? 0 : commits(cp1)) + (cp2 == null ? 0 : commits(cp2));
      return committed >= 2 && (inFlight(cp1) || inFlight(cp2));
    });
    assertTrue(commits(findCheckpoint(dir, "scd1_flow")) < FILES || commits(findCheckpoint(dir, "scd2_flow")) < FILES,
        "the run was cut short");

    runToCompletion(dir);
    // §7.2: a complete update with no new input leaves both tables as they are, without a commit;
    // so one query after it shows what the recovering run left.
    Map<String, Integer> commitsBefore = deltaCommits(dir);
    runToCompletion(dir);
    assertEquals(commitsBefore, deltaCommits(dir), "no new commit in either target");
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put("scd1", "SELECT * FROM scd1");
    queries.put("scd2", "SELECT * FROM scd2");
    Events.addQueries(queries);
    Map<String, List<JsonNode>> after = Sluice.PROCESS.queryAll(dir, queries);
    Events log = Events.from(after);
    assertEquals(List.of(), log.batches(log.update(-1), "scd1_flow"), "no batch of scd1_flow without new files");
    assertEquals(List.of(), log.batches(log.update(-1), "scd2_flow"), "no batch of scd2_flow without new files");
    assertEquals(scd1, rows(after.get("scd1"), "k", "a", "b"), "SCD 1 after the crash: the replay of all events");
    assertEquals(scd2, rows(after.get("scd2"), "k", "a", "b", "__START_AT", "__END_AT"),
        "SCD 2 after the crash: the replay of all events");
  }

  /** A run that may take longer than {@link Sluice#TIMEOUT}: each AUTO CDC batch is a few Spark jobs and two MERGEs. */
  private static void runToCompletion(Path dir) {
    CommandResult result = Sluice.start(dir, "run").await(Duration.ofMinutes(15));
    assertEquals(0, result.exit(), () -> "expected success: " + result);
  }

  /** The number of commits in the Delta log of each of scd1 and scd2, read from the warehouse. */
  private static Map<String, Integer> deltaCommits(Path dir) {
    Map<String, Integer> commits = new TreeMap<>();
    for (String table : Sluice.tablesOnDisk(dir)) {
      String name = Path.of(table).getFileName().toString();
      if (name.equals("scd1") || name.equals("scd2")) {
        try (Stream<Path> log = Files.list(dir.resolve(".sluice/warehouse").resolve(table).resolve("_delta_log"))) {
          commits.put(name, (int) log.filter(f -> f.getFileName().toString().matches("\\d+\\.json")).count());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    assertEquals(List.of("scd1", "scd2"), List.copyOf(commits.keySet()), () -> "tables on disk: " + Sluice.tablesOnDisk(dir));
    return commits;
  }

  private static boolean inFlight(Path checkpoint) {
    return checkpoint != null && count(checkpoint.resolve("offsets")) > commits(checkpoint);
  }

  /** One change event; {@code file} is the landing file (the micro-batch) it arrives in. */
  record Event(int k, String a, Integer b, boolean delete, int seq, int file) {
    String json() {
      return "{\"k\": " + k + ", \"a\": " + (delete ? "null" : "\"" + a + "\"") + ", \"b\": " + (delete ? "null" : b)
          + ", \"op\": \"" + (delete ? "D" : "U") + "\", \"seq\": " + seq + "}";
    }

    String values() {
      return a + "|" + b;
    }
  }

  /**
   * For each key, events at distinct sequences 1..n, shuffled over the files so most keys
   * see late events; about one in five is a delete; values come from a small domain so
   * some upserts repeat the current values (an SCD 2 no-op). A few events are delivered
   * twice, in a later file.
   */
  static List<Event> randomEvents(Random random) {
    List<Event> events = new ArrayList<>();
    for (int k = 1; k <= KEYS; k++) {
      int n = 3 + random.nextInt(6);
      for (int seq = 1; seq <= n; seq++) {
        boolean delete = seq > 1 && random.nextInt(5) == 0;
        events.add(new Event(k, delete ? null : "v" + random.nextInt(3), delete ? null : random.nextInt(2),
            delete, seq * 10, random.nextInt(FILES)));
      }
    }
    List<Event> duplicates = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Event e = events.get(random.nextInt(events.size()));
      int file = e.file + 1 + random.nextInt(Math.max(1, FILES - e.file - 1));
      duplicates.add(new Event(e.k, e.a, e.b, e.delete, e.seq, Math.min(file, FILES - 1)));
    }
    events.addAll(duplicates);
    return events;
  }

  /** §4.2: per key, the event with the highest sequence; the row if it is an upsert. */
  static List<String> scd1(List<Event> events) {
    Map<Integer, Event> last = new TreeMap<>();
    for (Event e : inSequenceOrder(events)) {
      last.put(e.k, e);
    }
    return last.values().stream().filter(e -> !e.delete).map(e -> e.k + "|" + e.a + "|" + e.b).sorted().toList();
  }

  /** §4.6, every column tracked: replay in sequence order, closing and opening versions. */
  static List<String> scd2(List<Event> events) {
    List<String> versions = new ArrayList<>();
    Map<Integer, Event> open = new TreeMap<>();
    for (Event e : inSequenceOrder(events)) {
      Event current = open.get(e.k);
      if (e.delete) {
        if (current != null) {
          versions.add(e.k + "|" + current.values() + "|" + current.seq + "|" + e.seq);
          open.remove(e.k);
        }
      } else if (current == null) {
        open.put(e.k, e);
      } else if (!current.values().equals(e.values())) {
        versions.add(e.k + "|" + current.values() + "|" + current.seq + "|" + e.seq);
        open.put(e.k, e);
      }
    }
    open.values().forEach(e -> versions.add(e.k + "|" + e.values() + "|" + e.seq + "|null"));
    return versions.stream().sorted().toList();
  }

  /** Distinct events (a duplicate delivery is the same event) by key, then sequence. */
  private static List<Event> inSequenceOrder(List<Event> events) {
    Map<String, Event> distinct = new TreeMap<>();
    for (Event e : events) {
      distinct.putIfAbsent(e.k + "@" + e.seq, e);
    }
    return distinct.values().stream().sorted(Comparator.comparingInt(Event::k).thenComparingInt(Event::seq)).toList();
  }
}
