package io.sluice.e2e;

import static io.sluice.e2e.CrashRecoveryE2E.commits;
import static io.sluice.e2e.CrashRecoveryE2E.count;
import static io.sluice.e2e.CrashRecoveryE2E.findCheckpoint;
import static io.sluice.e2e.CrashRecoveryE2E.killWhen;
import static io.sluice.testing.JsonRows.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.CommandResult;
import io.sluice.testing.PipelineFolder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot flow and a change-feed flow sharing one SCD type 1 target (SEMANTICS §5.5), under
 * SIGKILL (§7.1): a run killed while the change feed has a batch in flight, then a complete
 * run, leave the table that an uninterrupted run of the same pipeline leaves, run beside it.
 */
class SharedTargetE2E {
  static final int SNAPSHOTS = 2;
  static final int CHANGE_FILES = 4;

  @TempDir Path dir;
  @TempDir Path reference;

  @Test
  void aSnapshotAndAChangeFeedSharingATableSurviveASigkill() throws Exception {
    write(dir);
    write(reference);
    Sluice.Running uninterrupted = Sluice.start(reference, "run");
    Sluice.Running run = Sluice.start(dir, "run");
    killWhen(run, "a change feed batch in flight after 1 committed", () -> {
      Path cp = findCheckpoint(dir, "changes");
      return cp != null && commits(cp) >= 1 && count(cp.resolve("offsets")) > commits(cp);
    });
    assertTrue(commits(findCheckpoint(dir, "changes")) < CHANGE_FILES, "the run was cut short");
    CommandResult whole = uninterrupted.await(Duration.ofMinutes(10));
    assertEquals(0, whole.exit(), whole::toString);
    CommandResult rerun = Sluice.start(dir, "run").await(Duration.ofMinutes(10));
    assertEquals(0, rerun.exit(), rerun::toString);

    List<String> expected = rows(Sluice.PROCESS.tables(reference, "customers").get("customers"), "id", "name")
        .stream().sorted().toList();
    List<String> recovered = rows(Sluice.PROCESS.tables(dir, "customers").get("customers"), "id", "name")
        .stream().sorted().toList();
    assertTrue(expected.size() >= 3, () -> "the reference run kept customers: " + expected);
    assertEquals(expected, recovered, "the killed and rerun pipeline left what the uninterrupted one left");
  }

  /**
   * Exports 10 and 20 of customers 1-6 (some leave, some come back), and change files whose
   * events sit before, between and after the exports' versions, deletes among them.
   */
  private static void write(Path folder) {
    PipelineFolder pipeline = PipelineFolder.create(folder, "shared_target").sql("customers.sql", """
        CREATE STREAMING TABLE customers;

        CREATE FLOW backfill AS AUTO CDC INTO customers
        FROM SNAPSHOT (
          SELECT * FROM read_files(concat('snapshots/', string(current_snapshot_version()), '.csv'),
            format => 'csv', header => 'true', schema => 'id INT, name STRING', mode => 'FAILFAST'))
        WITH VERSION (
          SELECT int(replace(name, '.csv', '')) AS version FROM list_files('snapshots')
          WHERE int(replace(name, '.csv', '')) > coalesce(last_snapshot_version(), 0)
          ORDER BY version LIMIT 1)
        KEYS (id);

        CREATE TEMPORARY VIEW customer_changes AS
        SELECT * EXCEPT (_rescued_data) FROM STREAM read_files('landing', format => 'json',
          schema => 'id INT, name STRING, op STRING, seq INT', maxFilesPerTrigger => '1');

        CREATE FLOW changes AS AUTO CDC INTO customers
        FROM STREAM(customer_changes)
        KEYS (id)
        APPLY AS DELETE WHEN op = 'D'
        SEQUENCE BY seq
        COLUMNS * EXCEPT (op, seq);
        """);
    for (int s = 1; s <= SNAPSHOTS; s++) {
      StringBuilder csv = new StringBuilder("id,name\n");
      for (int id = 1; id <= 6; id++) {
        if ((id + s) % 4 != 0) {
          csv.append(id).append(",v").append(s * 10).append("-").append(id).append("\n");
        }
      }
      pipeline.file("snapshots/" + (s * 10) + ".csv", csv.toString());
    }
    int seq = 3;
    for (int f = 1; f <= CHANGE_FILES; f++) {
      List<String> events = new ArrayList<>();
      for (int id = 1; id <= 6; id += 1 + f % 2) {
        seq = (seq * 7 + id) % 37 + 1;
        boolean delete = (id * f) % 5 == 0;
        events.add("{\"id\": " + id + ", \"name\": " + (delete ? "null" : "\"c" + seq + "-" + id + "\"")
            + ", \"op\": \"" + (delete ? "D" : "U") + "\", \"seq\": " + seq + "}");
      }
      pipeline.json(String.format("landing/changes-%02d.json", f), events.toArray(String[]::new));
    }
  }
}
