package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.graph.DatasetName;
import io.sluice.storage.StoragePath;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.delta.DeltaLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window every exactly-once promise is about (SEMANTICS §7.1), made on purpose: a batch's
 * writes are committed but its stream checkpoint is not, as when the process dies between
 * the two. The next update runs the batch again; every table must end as if it ran once.
 * FROM SNAPSHOT flows have the same window tested in {@code SnapshotCdcTest}.
 */
class ReplayedBatchTest {
  private static final List<String> TABLES = List.of("raw", "current", "latest");

  @TempDir Path dir;

  @Test
  void aBatchCommittedButNotCheckpointedIsNotAppliedTwice() throws IOException {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM(cdc);
        CREATE STREAMING TABLE current;
        CREATE FLOW current_flow AS AUTO CDC INTO current FROM STREAM(cdc) KEYS (id)
          APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        CREATE STREAMING TABLE latest
        FLOW REPLACE USING (id) SEQUENCE BY seq BY NAME SELECT * FROM STREAM(cdc);
        """);
    createCdc(p);
    insert(p, "(1, 'a', 'U', 1), (2, 'b', 'U', 1), (3, 'c', 'U', 1)");
    runOk(p);
    insert(p, "(1, 'a2', 'U', 2), (2, NULL, 'D', 2), (3, 'c-late', 'U', 0), (4, 'd', 'U', 1)");
    runOk(p);
    Map<String, List<String>> once = contents(p);
    Map<String, Long> versions = versions(p);
    Path store = Path.of(new Checkpoints(StoragePath.root(p.spark(), p.spec().storage()))
        .autoCdcState(new DatasetName("spark_catalog", p.database(), "current")).toString());
    long storeRows = p.spark().read().format("delta").load(store.toString()).count();

    // Every flow's batch 1 is committed but not checkpointed; the AUTO CDC flow's state store
    // also lost its commit, as when the process dies between the target's commit and the store's.
    assertEquals(3, forgetLastCheckpointCommits(dir.resolve(".sluice/checkpoints")));
    dropLastCommit(store.resolve("_delta_log"));
    runOk(p);
    assertEquals(once, contents(p), "every table as after one run of the batch");
    assertEquals(versions, versions(p), "the replayed batch committed nothing new to the targets");
    assertEquals(storeRows, p.spark().read().format("delta").load(store.toString()).count(),
        "the replay made the store's append");
    insert(p, "(2, 'late', 'U', 1)");
    runOk(p);
    assertEquals(List.of("[1,a2]", "[3,c]", "[4,d]"), p.rows("SELECT * FROM current"),
        "the replayed tombstone keeps key 2 deleted");
  }

  @Test
  void aOnceFlowRunAgainAfterACrashReadsTheRowsItsFirstAttemptRead() throws IOException {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE MATERIALIZED VIEW feed AS SELECT * FROM cdc WHERE id < 100;
        CREATE STREAMING TABLE from_table;
        CREATE FLOW backfill_table AS AUTO CDC ONCE INTO from_table FROM cdc KEYS (id)
          SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        CREATE STREAMING TABLE from_view;
        CREATE FLOW backfill_view AS AUTO CDC ONCE INTO from_view FROM feed KEYS (id)
          SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        """);
    createCdc(p);
    insert(p, "(1, 'a', 'U', 1), (2, 'b', 'U', 1)");
    runOk(p);
    Checkpoints checkpoints = new Checkpoints(StoragePath.root(p.spark(), p.spec().storage()));
    Map<String, Long> stored = new LinkedHashMap<>();
    for (String target : List.of("from_table", "from_view")) {
      DatasetName name = new DatasetName("spark_catalog", p.database(), target);
      Path store = Path.of(checkpoints.autoCdcState(name).toString());
      stored.put(target, p.spark().read().format("delta").load(store.toString()).count());
      // The process died between the target's commit and the store's: the flow is not done.
      dropLastCommit(store.resolve("_delta_log"));
      checkpoints.location(name, new DatasetName("spark_catalog", p.database(), "backfill_" + target.substring(5)))
          .resolve("once-done").delete();
    }
    insert(p, "(3, 'c', 'U', 1)");
    runOk(p);
    for (String target : List.of("from_table", "from_view")) {
      assertEquals(List.of("[1,a]", "[2,b]"), p.rows("SELECT * FROM " + target), target);
      StoragePath store = checkpoints.autoCdcState(new DatasetName("spark_catalog", p.database(), target));
      assertEquals(stored.get(target), p.spark().read().format("delta").load(store.toString()).count(),
          target + ": the store got the events its target got, not the row that came since");
    }
  }

  @Test
  void aOnceFlowStoppedBeforeItsBatchBeganReadsTheFixedInputNextTime() {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE current (CONSTRAINT has_value EXPECT (v IS NOT NULL) ON VIOLATION FAIL UPDATE);
        CREATE FLOW backfill AS AUTO CDC ONCE INTO current FROM cdc KEYS (id)
          SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        """);
    createCdc(p);
    insert(p, "(1, 'a', 'U', 1), (2, NULL, 'U', 1)");
    UpdateResult failed = p.run();
    assertFalse(failed.succeeded(), "the expectation stops the flow: " + failed.flows());
    p.spark().sql("UPDATE " + p.database() + ".cdc SET v = 'b' WHERE id = 2");
    runOk(p);
    assertEquals(List.of("[1,a]", "[2,b]"), p.rows("SELECT * FROM current"), "the run after the fix reads the fix");
  }

  @Test
  void aCheckpointFromBeforeTagsHasItsReplayedBatchCheckedByDeltasAppVersions() throws IOException {
    TestPipeline p = new TestPipeline(dir).sql("CREATE STREAMING TABLE raw AS SELECT * FROM STREAM(cdc);");
    createCdc(p);
    insert(p, "(1, 'a', 'U', 1)");
    runOk(p);
    insert(p, "(2, 'b', 'U', 1)");
    runOk(p);
    List<String> once = p.rows("SELECT * FROM raw");

    // As Sluice left a crash before tags: batch 1 committed under Delta's app version, not
    // checkpointed, and no batch log.
    Path checkpoint;
    try (Stream<Path> files = Files.walk(dir.resolve(".sluice/checkpoints"))) {
      checkpoint = files.filter(f -> f.getFileName().toString().equals("sluice-batch")).findFirst().orElseThrow().getParent();
    }
    Files.delete(checkpoint.resolve("sluice-batch"));
    String location = p.spark().sql("DESCRIBE DETAIL " + p.database() + ".raw").first().getAs("location");
    asCommitBeforeTags(Path.of(java.net.URI.create(location)).resolve("_delta_log"),
        Files.readString(checkpoint.resolve("sluice-app-id")).trim(), 1);
    assertEquals(1, forgetLastCheckpointCommits(dir.resolve(".sluice/checkpoints")));
    runOk(p);
    assertEquals(once, p.rows("SELECT * FROM raw"), "Delta's app version kept the batch from being appended twice");
    assertTrue(Files.exists(checkpoint.resolve("sluice-batch")), "the batch log starts with the replayed batch");
  }

  private static void createCdc(TestPipeline p) {
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".cdc (id INT, v STRING, op STRING, seq INT) USING delta");
  }

  private static void insert(TestPipeline p, String values) {
    p.spark().sql("INSERT INTO " + p.database() + ".cdc VALUES " + values);
  }

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  private static Map<String, List<String>> contents(TestPipeline p) {
    Map<String, List<String>> contents = new LinkedHashMap<>();
    TABLES.forEach(t -> contents.put(t, p.rows("SELECT * FROM " + t)));
    return contents;
  }

  private static Map<String, Long> versions(TestPipeline p) {
    Map<String, Long> versions = new LinkedHashMap<>();
    TABLES.forEach(t -> versions.put(t, p.spark().sql("DESCRIBE HISTORY " + p.database() + ".`" + t + "`")
        .first().getLong(0)));
    return versions;
  }

  /** Deletes the newest {@code commits/N} of every stream checkpoint: its batch N runs again. */
  static int forgetLastCheckpointCommits(Path checkpoints) throws IOException {
    int forgotten = 0;
    try (Stream<Path> dirs = Files.walk(checkpoints)) {
      for (Path commits : dirs.filter(d -> d.getFileName().toString().equals("commits") && Files.isDirectory(d)).toList()) {
        try (Stream<Path> files = Files.list(commits)) {
          Path last = files.filter(f -> f.getFileName().toString().matches("\\d+"))
              .max(Comparator.comparingLong(f -> Long.parseLong(f.getFileName().toString()))).orElseThrow();
          Files.delete(last);
          Files.deleteIfExists(last.resolveSibling("." + last.getFileName() + ".crc"));
          forgotten++;
        }
      }
    }
    return forgotten;
  }

  /** Rewrites a table's newest commit as Sluice made them before tags: with Delta's record of (app id, batch). */
  private static void asCommitBeforeTags(Path log, String appId, long batch) throws IOException {
    Path last = newestCommit(log);
    List<String> actions = new ArrayList<>();
    for (String action : Files.readAllLines(last)) {
      actions.add(action.replaceAll(",\"userMetadata\":\"(?:[^\"\\\\]|\\\\.)*\"", ""));
    }
    actions.add("{\"txn\":{\"appId\":\"" + appId + "\",\"version\":" + batch + ",\"lastUpdated\":0}}");
    assertTrue(actions.stream().noneMatch(a -> a.contains("userMetadata")), actions::toString);
    Files.write(last, actions);
    forgetChecksums(log, last.getFileName().toString().substring(0, 20));
    DeltaLog.clearCache();
  }

  private static Path newestCommit(Path log) throws IOException {
    try (Stream<Path> files = Files.list(log)) {
      return files.filter(f -> f.getFileName().toString().matches("\\d{20}\\.json")).max(Comparator.naturalOrder()).orElseThrow();
    }
  }

  private static void forgetChecksums(Path log, String version) throws IOException {
    Files.deleteIfExists(log.resolve(version + ".crc"));
    Files.deleteIfExists(log.resolve("." + version + ".crc.crc"));
    Files.deleteIfExists(log.resolve("." + version + ".json.crc"));
  }

  /** Removes a Delta table's newest commit, as if the process had died before writing it. */
  static void dropLastCommit(Path log) throws IOException {
    Path last = newestCommit(log);
    Files.delete(last);
    forgetChecksums(log, last.getFileName().toString().substring(0, 20));
    // A new process would not know the commit either.
    DeltaLog.clearCache();
  }
}
