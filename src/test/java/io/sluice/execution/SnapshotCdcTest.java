package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.SnapshotExample;
import io.sluice.testing.TestPipeline;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTO CDC FROM SNAPSHOT flows through the real engine (SEMANTICS §5). */
class SnapshotCdcTest {
  /** Historical snapshots: one JSON file per version in snapshots/, found with list_files. */
  static final String HISTORY = """
      CREATE STREAMING TABLE customers;
      CREATE FLOW customers_flow AS AUTO CDC INTO customers
      FROM SNAPSHOT (
        SELECT * FROM read_files(format_string('snapshots/%d.json', current_snapshot_version()),
                                 schema => 'id INT, name STRING, city STRING'))
      WITH VERSION (
        SELECT int(replace(name, '.json', '')) AS version FROM list_files('snapshots')
        WHERE int(replace(name, '.json', '')) > coalesce(last_snapshot_version(), 0)
        ORDER BY version LIMIT 1)
      KEYS (id);

      CREATE STREAMING TABLE customers_history;
      CREATE FLOW customers_history_flow AS AUTO CDC INTO customers_history
      FROM SNAPSHOT (
        SELECT * FROM read_files(format_string('snapshots/%d.json', current_snapshot_version()),
                                 schema => 'id INT, name STRING, city STRING'))
      WITH VERSION (
        SELECT int(replace(name, '.json', '')) AS version FROM list_files('snapshots')
        WHERE int(replace(name, '.json', '')) > coalesce(last_snapshot_version(), 0)
        ORDER BY version LIMIT 1)
      KEYS (id)
      STORED AS SCD TYPE 2;
      """;

  @TempDir Path dir;

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  @Test
  void fiveSnapshotsTwoInOneUpdateThenOnePerUpdate() {
    TestPipeline p = new TestPipeline(dir).sql(HISTORY);
    SnapshotExample.write(p, 1);
    SnapshotExample.write(p, 2);
    runOk(p);
    assertEquals(List.of("[1,Ana,Lima]", "[2,Bo,Bergen]", "[4,Di,Kyiv]"), p.rows("SELECT * FROM customers"));
    for (int n = 3; n <= 5; n++) {
      SnapshotExample.write(p, n);
      runOk(p);
    }
    assertEquals(SnapshotExample.SCD1, p.rows("SELECT * FROM customers"));
    assertEquals(SnapshotExample.SCD2, p.rows("SELECT * FROM customers_history"));
    long commits = p.spark().sql("DESCRIBE HISTORY " + p.database() + ".customers").count();
    runOk(p);
    assertEquals(commits, p.spark().sql("DESCRIBE HISTORY " + p.database() + ".customers").count(),
        "an update without a new snapshot commits nothing");
  }
}
