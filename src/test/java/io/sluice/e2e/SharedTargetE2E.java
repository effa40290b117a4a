package io.sluice.e2e;

import static io.sluice.e2e.CrashRecoveryE2E.commits;
import static io.sluice.e2e.CrashRecoveryE2E.count;
import static io.sluice.e2e.CrashRecoveryE2E.findCheckpoint;
import static io.sluice.e2e.CrashRecoveryE2E.killWhen;
import static io.sluice.testsupport.JsonRows.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.SharedTargetPipeline;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot flow and a change-feed flow sharing one SCD type 1 target (SEMANTICS §5.5), under
 * SIGKILL (§7.1): a run killed while the change feed has a batch in flight, then a complete
 * run, leave the table that an uninterrupted run of the same pipeline leaves
 * ({@link SharedTargetPipeline#CUSTOMERS}).
 */
class SharedTargetE2E {
  @TempDir Path dir;

  @Test
  void aSnapshotAndAChangeFeedSharingATableSurviveASigkill() throws Exception {
    SharedTargetPipeline.write(dir);
    Sluice.Running run = Sluice.start(dir, "run");
    killWhen(run, "a change feed batch in flight after 1 committed", () -> {
      Path cp = findCheckpoint(dir, "changes");
      return cp != null && commits(cp) >= 1 && count(cp.resolve("offsets")) > commits(cp);
    });
    assertTrue(commits(findCheckpoint(dir, "changes")) < SharedTargetPipeline.CHANGE_FILES, "the run was cut short");
    CommandResult rerun = Sluice.start(dir, "run").await(Duration.ofMinutes(10));
    assertEquals(0, rerun.exit(), rerun::toString);

    assertEquals(SharedTargetPipeline.CUSTOMERS, rows(Sluice.PROCESS.tables(dir, "customers").get("customers"), "id", "name"),
        "the killed and rerun pipeline left what an uninterrupted one leaves");
  }
}
