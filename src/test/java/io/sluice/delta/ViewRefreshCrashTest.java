package io.sluice.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.eventlog.FlowState;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.RuntimeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An incremental refresh that dies with its files written and its commit not made (SEMANTICS
 * §7.2.1) leaves the view and the state that says where it stands as its last refresh left them:
 * the next update refreshes from the same versions, and counts the appended rows once.
 */
class ViewRefreshCrashTest {
  private static final String BY_CITY = "SELECT city, count(*) AS n, max(id) AS last FROM raw GROUP BY city";
  @TempDir Path dir;

  /** A pipeline whose view {@code by_city} refreshed once, over {@code rows} landed in {@code raw} (with a change feed). */
  private TestPipeline refreshed(String rows) {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/0.json", rows)
        .sql("""
            CREATE STREAMING TABLE raw TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true') AS SELECT * FROM
              STREAM read_files('landing', format => 'json', schema => 'id INT, city STRING', rescuedDataColumn => '');
            CREATE MATERIALIZED VIEW by_city REFRESH POLICY INCREMENTAL AS\s""" + BY_CITY + ";");
    assertTrue(p.run().succeeded());
    return p;
  }

  @Test
  void aRefreshKilledBeforeItsCommitIsMadeOnceByTheNextUpdate() {
    TestPipeline p = refreshed("{\"id\": 1, \"city\": \"Lyon\"}\n{\"id\": 2, \"city\": null}\n");
    p.write("landing/1.json", "{\"id\": 3, \"city\": \"Lyon\"}\n{\"id\": 4, \"city\": \"Nice\"}\n");
    long versions = p.spark().sql("DESCRIBE HISTORY " + p.database() + ".by_city").count();

    RuntimeConfig conf = SharedSpark.session().conf();
    conf.set("pipelines.maxFlowRetryAttempts", "0");
    KeyedCommit.beforeCommit = () -> {
      throw new IllegalStateException("the process dies here");
    };
    UpdateResult failed;
    try {
      failed = p.run();
    } finally {
      KeyedCommit.beforeCommit = () -> {};
      conf.unset("pipelines.maxFlowRetryAttempts");
    }
    FlowOutcome view = failed.flows().stream().filter(f -> f.dataset().equals("by_city")).findFirst().orElseThrow();
    assertEquals(FlowState.FAILED, view.state());
    assertEquals(versions, p.spark().sql("DESCRIBE HISTORY " + p.database() + ".by_city").count(), "no commit");
    assertEquals(List.of("[Lyon,1,1]", "[null,1,2]"), p.rows("SELECT * FROM by_city"), "the rows of the last refresh");

    assertTrue(p.run().succeeded());
    assertEquals(List.of("[Lyon,2,3]", "[Nice,1,4]", "[null,1,2]"), p.rows("SELECT * FROM by_city"), "each row counted once");
    assertEquals(p.rows(BY_CITY), p.rows("SELECT * FROM by_city"));
    List<String> techniques = p.rows("SELECT message FROM delta.`" + dir.resolve(".sluice/system/event_log")
        + "` WHERE event_type = 'planning_information' AND message LIKE '%GROUP_AGGREGATE%'");
    assertEquals(2, techniques.size(), "both attempts refreshed by merging the touched groups: " + techniques);
  }

  @Test
  void aRefreshKilledBetweenItsStateAndItsViewLeavesBothAsTheLastRefreshDid() {
    TestPipeline p = refreshed("{\"id\": 1, \"city\": \"Lyon\"}\n{\"id\": 2, \"city\": \"Lyon\"}\n");
    String state = "delta.`" + java.util.Arrays.stream(dir.resolve(".sluice/checkpoints").toFile().listFiles())
        .filter(f -> f.getName().contains("by_city")).findFirst().orElseThrow().toPath().resolve(".view-state/groups") + "`";
    long stateVersions = p.spark().sql("DESCRIBE HISTORY " + state).count();
    // Appends merge into the view's rows alone: the state stays behind.
    p.write("landing/1.json", "{\"id\": 3, \"city\": \"Lyon\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[Lyon,3,3]"), p.rows("SELECT * FROM by_city"));
    assertEquals(stateVersions, p.spark().sql("DESCRIBE HISTORY " + state).count(), "the state left behind");

    // A delete merges into the state first, from where it stands; the process dies before the view's commit.
    p.spark().sql("DELETE FROM " + p.database() + ".raw WHERE id = 1");
    RuntimeConfig conf = SharedSpark.session().conf();
    conf.set("pipelines.maxFlowRetryAttempts", "0");
    int[] commits = {0};
    KeyedCommit.beforeCommit = () -> {
      if (++commits[0] == 2) {
        throw new IllegalStateException("the process dies here");
      }
    };
    try {
      assertTrue(!p.run().succeeded());
    } finally {
      KeyedCommit.beforeCommit = () -> {};
      conf.unset("pipelines.maxFlowRetryAttempts");
    }
    assertEquals(stateVersions + 1, p.spark().sql("DESCRIBE HISTORY " + state).count(), "the state moved on alone");
    assertEquals(List.of("[Lyon,3,3]"), p.rows("SELECT * FROM by_city"));

    p.write("landing/2.json", "{\"id\": 4, \"city\": \"Lyon\"}\n");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[Lyon,3,4]"), p.rows("SELECT * FROM by_city"), "each row counted once, the deleted one not");
    assertEquals(List.of("[Lyon,3]"), p.rows("SELECT city, " + "__sluice_rows FROM " + state), "the state restored, then merged");
  }
}
