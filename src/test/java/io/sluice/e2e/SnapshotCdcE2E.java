package io.sluice.e2e;

import static io.sluice.e2e.CrashRecoveryE2E.isJava;
import static io.sluice.e2e.CrashRecoveryE2E.killWhen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.ExampleTables;
import io.sluice.testsupport.JsonRows;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AUTO CDC FROM SNAPSHOT flows driven through {@code bin/sluice} (SEMANTICS §5): the
 * historical snapshots example as shipped in {@code examples/snapshot-cdc}, whose SCD type
 * 1 and 2 targets must survive a SIGKILL during their snapshots (§7.1).
 */
class SnapshotCdcE2E {
  static final Path EXAMPLE = Sluice.REPO.resolve("examples/snapshot-cdc");

  @TempDir Path dir;

  /**
   * The example, run as a user runs it (dated CSV exports found with list_files, applied in
   * date order: §5.2, §5.3), but killed with SIGKILL while a snapshot is being applied (its
   * pending record written) after at least one was recorded. The rerun must leave the
   * documented tables, as an uninterrupted run does (§7.1); a further run, with no new
   * export, commits nothing (§7.2).
   */
  @Test
  void theExampleKilledMidSnapshotRecoversToTheDocumentedTables() throws Exception {
    PipelineFolder.copyOf(EXAMPLE, dir);
    Sluice.Running run = Sluice.start(dir, "run");
    assertTrue(isJava(run.process), "bin/sluice execs the JVM, so SIGKILL reaches the JVM itself");
    killWhen(run, "a snapshot being applied after one was recorded", () -> !recorded(dir).isEmpty() && pending(dir));
    Map<String, Long> recorded = recorded(dir);
    System.out.println("[e2e] snapshots recorded when killed (last number per flow): " + recorded);
    assertTrue(recorded.size() < 2 || recorded.values().stream().anyMatch(n -> n < 4),
        "the run was cut short of the last snapshot: " + recorded);

    runToCompletion(dir);
    assertEquals(Map.of("customers_flow", 4L, "customers_history_flow", 4L), recorded(dir),
        "both flows recorded the five exports");
    assertTrue(!pending(dir), "no snapshot left pending");
    // The tables read after a run that commits nothing are the tables the rerun left.
    Map<String, Integer> commitsBefore = deltaCommits(dir);
    runToCompletion(dir);
    assertEquals(commitsBefore, deltaCommits(dir), "no new commit in either target");

    List<ExampleTables.Expected> documented = ExampleTables.of(Sluice.REPO, "snapshot-cdc");
    Map<String, String> queries = new LinkedHashMap<>(ExampleTables.queries(documented, null));
    queries.put("columns", "SELECT * FROM customers_history LIMIT 1");
    Map<String, List<JsonNode>> t = Sluice.PROCESS.queryAll(dir, queries);

    // SCD 1: the export of 2026-01-06; SCD 2: every version, by snapshot date, removed keys
    // closed, re-added keys reopened.
    ExampleTables.assertHolds(documented, t, "the example killed and run again");
    assertEquals(List.of("id", "name", "city"), JsonRows.fieldNames(t.get("customers").get(0)),
        "SCD 1: the snapshot's columns, no hidden ones");
    assertEquals(List.of("id", "name", "city", "__START_AT", "__END_AT"), JsonRows.fieldNames(t.get("columns").get(0)));
  }

  /** A run that may take longer than {@link Sluice#TIMEOUT}: each snapshot is a few Spark jobs and a MERGE. */
  private static void runToCompletion(Path dir) {
    CommandResult result = Sluice.start(dir, "run").await(Duration.ofMinutes(15));
    assertEquals(0, result.exit(), () -> "expected success: " + result);
  }

  /** The snapshot logs ({@code checkpoints/<target>/<flow>/snapshots}) under the pipeline's storage. */
  private static List<Path> snapshotLogs(Path dir) {
    Path root = dir.resolve(".sluice/checkpoints");
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(root, 3)) {
      return paths.filter(p -> p.getNameCount() - root.getNameCount() == 3 && p.getFileName().toString().equals("snapshots"))
          .toList();
    } catch (IOException | UncheckedIOException e) {
      return List.of(); // a folder removed while walking: poll again
    }
  }

  /** Per flow, the number of its last recorded snapshot (0 for the first); flows with none are absent. */
  private static Map<String, Long> recorded(Path dir) {
    Map<String, Long> recorded = new TreeMap<>();
    for (Path log : snapshotLogs(dir)) {
      Path last = log.resolve("last");
      JsonNode entry;
      try {
        entry = new ObjectMapper().readTree(last.toFile());
      } catch (IOException e) {
        continue; // not written yet (it is replaced atomically)
      }
      recorded.put(log.getParent().getFileName().toString(), entry.get("number").asLong());
    }
    return recorded;
  }

  /** Whether a flow has written its pending record: a snapshot's MERGE is about to run or running. */
  private static boolean pending(Path dir) {
    return snapshotLogs(dir).stream().anyMatch(log -> Files.exists(log.resolve("pending")));
  }

  /** The number of commits in the Delta log of each of the example's tables. */
  private static Map<String, Integer> deltaCommits(Path dir) {
    Map<String, Integer> commits = new TreeMap<>();
    for (String table : Sluice.tablesOnDisk(dir)) {
      String name = Path.of(table).getFileName().toString();
      if (name.equals("customers") || name.equals("customers_history")) {
        try (Stream<Path> log = Files.list(dir.resolve(".sluice/warehouse").resolve(table).resolve("_delta_log"))) {
          commits.put(name, (int) log.filter(f -> f.getFileName().toString().matches("\\d+\\.json")).count());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    assertEquals(List.of("customers", "customers_history"), List.copyOf(commits.keySet()), () -> "tables on disk: " + Sluice.tablesOnDisk(dir));
    return commits;
  }
}
