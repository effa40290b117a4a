package io.sluice.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.eventlog.FlowState;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.RuntimeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instant a keyed batch is most exposed (SEMANTICS §7.1): its new data files and deletion
 * vector files are written, its commit is not. A process that dies there leaves files that no
 * commit names; the next update must run the batch again as if the first attempt never happened,
 * and VACUUM must remove what the attempt left. Every keyed kind is made to fail at that instant.
 */
class KeyedCommitCrashTest {
  private static final List<String> TARGETS = List.of("scd1", "scd2", "latest", "mirror");
  private static final String PIPELINE = """
      CREATE STREAMING TABLE scd1;
      CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM STREAM(cdc) KEYS (id)
        APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
      CREATE STREAMING TABLE scd2;
      CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(cdc) KEYS (id)
        APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;
      CREATE STREAMING TABLE latest
      FLOW REPLACE USING (id) SEQUENCE BY seq BY NAME SELECT * FROM STREAM(cdc);
      CREATE STREAMING TABLE mirror;
      CREATE FLOW mirror_flow AS AUTO CDC INTO mirror FROM SNAPSHOT snap KEYS (id);
      """;

  @TempDir Path dir;

  @Test
  void aBatchWhoseFilesAreWrittenButNotCommittedIsRunAgainOnceAndItsFilesAreVacuumed() {
    TestPipeline crashed = pipeline(dir);
    change(crashed, "(1, 'a', 'U', 1), (2, 'b', 'U', 1), (3, 'c', 'U', 1), (4, 'd', 'U', 1)",
        "(1, 'a'), (2, 'b'), (3, 'c')");
    runOk(crashed);
    change(crashed, "(1, 'a2', 'U', 2), (2, NULL, 'D', 2), (3, 'c-late', 'U', 0), (5, 'e', 'U', 1)",
        "(1, 'a2'), (3, 'c'), (5, 'e')");
    Map<String, Set<Path>> before = files(crashed);
    Map<String, Long> versions = versions(crashed);
    UpdateResult failed = withRetries(0, () -> {
      KeyedCommit.beforeCommit = () -> {
        throw new IllegalStateException("the process dies here");
      };
      try {
        return crashed.run();
      } finally {
        KeyedCommit.beforeCommit = () -> {};
      }
    });
    for (String target : TARGETS) {
      FlowOutcome flow = failed.flows().stream().filter(f -> f.dataset().equals(target)).findFirst().orElseThrow();
      assertEquals(FlowState.FAILED, flow.state(), target + ": its keyed commit failed");
      assertTrue(flow.errorMessage().orElse("").contains("the process dies here"), () -> target + ": " + flow.errorMessage());
    }
    assertEquals(versions, versions(crashed), "no target has a new version");
    Map<String, Set<Path>> orphans = added(before, files(crashed));
    for (String target : TARGETS) {
      Set<Path> left = orphans.get(target);
      assertTrue(left.stream().anyMatch(f -> f.getFileName().toString().endsWith(".parquet")),
          target + ": the attempt wrote data files " + left);
      assertTrue(left.stream().anyMatch(f -> f.getFileName().toString().startsWith("deletion_vector_")),
          target + ": the attempt wrote deletion vectors " + left);
    }

    runOk(crashed);
    Map<String, List<String>> once = Map.of(
        "scd1", List.of("[1,a2]", "[3,c]", "[4,d]", "[5,e]"),
        "scd2", List.of("[1,a,1,2]", "[1,a2,2,null]", "[2,b,1,2]", "[3,c,1,null]", "[3,c-late,0,1]", "[4,d,1,null]",
            "[5,e,1,null]"),
        "latest", List.of("[1,a2]", "[2,null]", "[3,c]", "[4,d]", "[5,e]"),
        "mirror", List.of("[1,a2]", "[3,c]", "[5,e]"));
    assertEquals(once, contents(crashed), "every target as if the batch had run once");

    crashed.spark().conf().set("spark.databricks.delta.retentionDurationCheck.enabled", "false");
    try {
      for (String target : TARGETS) {
        crashed.spark().sql("VACUUM " + crashed.database() + "." + target + " RETAIN 0 HOURS");
      }
    } finally {
      crashed.spark().conf().unset("spark.databricks.delta.retentionDurationCheck.enabled");
    }
    Map<String, Set<Path>> after = files(crashed);
    for (String target : TARGETS) {
      Set<Path> kept = new HashSet<>(orphans.get(target));
      kept.retainAll(after.get(target));
      assertEquals(Set.of(), kept, target + ": VACUUM removed the files no commit names");
    }
    assertEquals(once, contents(crashed), "the targets read the same after VACUUM");
  }

  private static TestPipeline pipeline(Path root) {
    TestPipeline p = new TestPipeline(root).sql(PIPELINE);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".cdc (id INT, v STRING, op STRING, seq INT) USING delta");
    p.spark().sql("CREATE TABLE " + p.database() + ".snap (id INT, v STRING) USING delta");
    return p;
  }

  /** Appends {@code events} to the change feed and makes {@code snapshot} the snapshot source's rows. */
  private static void change(TestPipeline p, String events, String snapshot) {
    p.spark().sql("INSERT INTO " + p.database() + ".cdc VALUES " + events);
    p.spark().sql("INSERT OVERWRITE " + p.database() + ".snap VALUES " + snapshot);
  }

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  /** Runs {@code update} with {@code retries} retries of a failed flow (none: the failure ends the update). */
  private static UpdateResult withRetries(int retries, Supplier<UpdateResult> update) {
    RuntimeConfig conf = SharedSpark.session().conf();
    conf.set("pipelines.maxFlowRetryAttempts", String.valueOf(retries));
    try {
      return update.get();
    } finally {
      conf.unset("pipelines.maxFlowRetryAttempts");
    }
  }

  private static Map<String, List<String>> contents(TestPipeline p) {
    Map<String, List<String>> contents = new LinkedHashMap<>();
    for (String target : TARGETS) {
      String columns = target.equals("scd2") ? "id, v, __START_AT, __END_AT" : "id, v";
      contents.put(target, p.rows("SELECT " + columns + " FROM " + target));
    }
    return contents;
  }

  private static Map<String, Long> versions(TestPipeline p) {
    Map<String, Long> versions = new LinkedHashMap<>();
    for (String target : TARGETS) {
      versions.put(target, p.spark().sql("DESCRIBE HISTORY " + p.database() + "." + target).first().getLong(0));
    }
    return versions;
  }

  /** Each target's files outside its log. */
  private static Map<String, Set<Path>> files(TestPipeline p) {
    Map<String, Set<Path>> files = new LinkedHashMap<>();
    for (String target : TARGETS) {
      Path location = Path.of(URI.create(p.spark().sql("DESCRIBE DETAIL " + p.database() + "." + target)
          .first().getAs("location").toString()));
      try (Stream<Path> all = Files.walk(location)) {
        files.put(target, all.filter(Files::isRegularFile)
            .filter(f -> !location.relativize(f).startsWith("_delta_log"))
            .filter(f -> !f.getFileName().toString().endsWith(".crc"))
            .collect(Collectors.toSet()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  private static Map<String, Set<Path>> added(Map<String, Set<Path>> before, Map<String, Set<Path>> after) {
    Map<String, Set<Path>> added = new LinkedHashMap<>();
    after.forEach((target, files) -> {
      Set<Path> fresh = new HashSet<>(files);
      fresh.removeAll(before.get(target));
      added.put(target, fresh);
    });
    return added;
  }
}
