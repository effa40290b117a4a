package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.sluice.SluiceException;
import io.sluice.eventlog.FlowState;
import io.sluice.storage.StoragePath;
import io.sluice.testsupport.SnapshotExample;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTO CDC FROM SNAPSHOT flows through the real engine (SEMANTICS §5). */
class SnapshotCdcTest {
  /** The next numbered file in snapshots/, found with list_files: the value form of last_snapshot_version(). */
  static final String NEXT_FILE = """
      SELECT int(replace(name, '.json', '')) AS version FROM list_files('snapshots')
      WHERE int(replace(name, '.json', '')) > coalesce(last_snapshot_version(), 0)
      ORDER BY version LIMIT 1""";

  /** The same, through the table form: SELECT ... FROM last_snapshot_version(). */
  static final String NEXT_FILE_BY_TABLE = """
      SELECT version FROM (SELECT int(replace(name, '.json', '')) AS version FROM list_files('snapshots'))
      WHERE version > (SELECT coalesce(max(version), 0) FROM last_snapshot_version())
      ORDER BY version LIMIT 1""";

  /** Historical snapshots: one JSON file per version in snapshots/, as SCD 1, SCD 2, and SCD 2 tracking the city. */
  static final String HISTORY = snapshotFlow("customers", NEXT_FILE, "")
      + snapshotFlow("customers_history", NEXT_FILE, "STORED AS SCD TYPE 2")
      + snapshotFlow("customers_by_city", NEXT_FILE_BY_TABLE, "STORED AS SCD TYPE 2 TRACK HISTORY ON city");

  private static String snapshotFlow(String table, String versionQuery, String clauses) {
    return """
        CREATE STREAMING TABLE %1$s;
        CREATE FLOW %1$s_flow AS AUTO CDC INTO %1$s
        FROM SNAPSHOT (
          SELECT * FROM read_files(format_string('snapshots/%%d.json', current_snapshot_version()),
                                   schema => 'id INT, name STRING, city STRING', mode => 'FAILFAST'))
        WITH VERSION (%2$s)
        KEYS (id) %3$s;
        """.formatted(table, versionQuery, clauses);
  }

  @TempDir Path dir;

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  @Test
  void fiveSnapshotsTwoInOneUpdateThenOnePerUpdate() throws Exception {
    TestPipeline p = new TestPipeline(dir).sql(HISTORY);
    SnapshotExample.write(p, 1);
    SnapshotExample.write(p, 2);
    runOk(p);
    assertEquals(List.of("[1,Ana,Lima]", "[2,Bo,Bergen]", "[4,Di,Kyiv]"), p.rows("SELECT * FROM customers"));
    // As if the process died after snapshot 2's commit and before its log entry: the next
    // update must find the commit in the table and go on from version 2.
    Path log = dir.resolve(".sluice/checkpoints/spark_catalog." + p.database() + ".customers_history"
        + "/customers_history_flow/snapshots");
    Files.move(log.resolve("last"), log.resolve("pending"));
    for (int n = 3; n <= 5; n++) {
      SnapshotExample.write(p, n);
      runOk(p);
    }
    assertEquals(SnapshotExample.SCD1, p.rows("SELECT * FROM customers"));
    assertEquals(SnapshotExample.SCD2, p.rows("SELECT * FROM customers_history"));
    assertEquals(SnapshotExample.SCD2_CITY, p.rows("SELECT * FROM customers_by_city"));
    long commits = commits(p, "customers");
    runOk(p);
    assertEquals(commits, commits(p, "customers"), "an update without a new snapshot commits nothing");

    UpdateResult refreshed = p.run(new UpdateOptions(false, List.of("customers_history"), List.of()));
    assertTrue(refreshed.succeeded(), () -> refreshed.flows().toString());
    assertEquals(SnapshotExample.SCD2, p.rows("SELECT * FROM customers_history"), "a full refresh reapplies all five");
  }

  @Test
  void theJavaFunctionSourceGivesTheSameTables() {
    System.setProperty(SnapshotDefinitions.FOLDER, dir.toString());
    TestPipeline p = new TestPipeline(dir).libraries("- class: " + SnapshotDefinitions.class.getName());
    for (int n = 1; n <= 5; n++) {
      SnapshotExample.write(p, n);
    }
    runOk(p);
    assertEquals(SnapshotExample.SCD1, p.rows("SELECT * FROM customers"));
    assertEquals(SnapshotExample.SCD2_CITY, p.rows("SELECT * FROM customers_by_city"));
  }

  /**
   * A periodic snapshot rewrites only the keys that changed; one whose source tables did not
   * commit since is not read at all, unless its query or its target changed.
   */
  @Test
  void aPeriodicSnapshotRewritesOnlyTheChangedKeys() {
    String flows = """
        CREATE STREAMING TABLE accounts;
        CREATE FLOW accounts_flow AS AUTO CDC INTO accounts FROM SNAPSHOT accounts_src KEYS (id);
        CREATE STREAMING TABLE accounts_history;
        CREATE FLOW accounts_history_flow AS AUTO CDC INTO accounts_history
        FROM SNAPSHOT (SELECT id, balance FROM accounts_src WHERE id > %d) KEYS (id) STORED AS SCD TYPE 2;
        """;
    TestPipeline p = new TestPipeline(dir).sql(flows.formatted(0));
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".accounts_src USING delta AS"
        + " SELECT id, id * 10 AS balance FROM range(1, 1001)");
    runOk(p);
    assertEquals(1000L, p.spark().table(p.database() + ".accounts").count());
    p.spark().sql("UPDATE " + p.database() + ".accounts_src SET balance = -1 WHERE id = 7");
    p.spark().sql("DELETE FROM " + p.database() + ".accounts_src WHERE id = 8");
    runOk(p);
    assertEquals(List.of("[7,-1]"), p.rows("SELECT * FROM accounts WHERE id IN (7, 8)"));
    for (String table : List.of("accounts", "accounts_history")) {
      assertEquals(List.of("[1,WRITE]", "[2,AUTO CDC FROM SNAPSHOT]"), DeltaTable.forName(p.spark(), p.database() + "." + table).history()
              .where("version > 0").selectExpr("version", "operation").orderBy("version").collectAsList().stream()
              .map(Row::toString).toList(),
          table + ": the first snapshot only inserts rows: appended; the second changes some: one commit of its own");
    }
    Row latest = p.spark().sql("DESCRIBE HISTORY " + p.database() + ".accounts").first();
    Map<String, String> metrics = latest.getJavaMap(latest.fieldIndex("operationMetrics"));
    assertEquals("AUTO CDC FROM SNAPSHOT", latest.getString(latest.fieldIndex("operation")));
    assertEquals("0", metrics.get("numTargetRowsCopied"), () -> "unchanged rows were rewritten: " + metrics);
    assertEquals("1", metrics.get("numTargetRowsUpdated"), metrics::toString);
    assertEquals("1", metrics.get("numTargetRowsDeleted"), metrics::toString);
    List<String> history = p.rows("SELECT id, balance, __END_AT IS NULL FROM accounts_history WHERE id IN (7, 8)");
    assertEquals(List.of("[7,-1,true]", "[7,70,false]", "[8,80,false]"), history);
    assertEquals(999L, p.spark().table(p.database() + ".accounts_history").where("__END_AT IS NULL").count());

    long accountsCommits = commits(p, "accounts");
    assertEquals(Map.of("accounts_flow", 0, "accounts_history_flow", 0), batches(p.run()), "nothing new: not read");
    assertEquals(accountsCommits, commits(p, "accounts"), "no commit to the target");
    List<String> notRead = p.spark().read().format("delta").load(p.root().resolve(".sluice/system/event_log").toString())
        .where("level = 'INFO' AND message LIKE '%not read'").select("origin.flow_name").collectAsList().stream()
        .map(r -> r.getString(0)).sorted().toList();
    assertEquals(List.of("accounts_flow", "accounts_history_flow"), notRead, "the event log says which flows skipped");

    p.sql(flows.formatted(990));
    p.spark().sql("DELETE FROM " + p.database() + ".accounts WHERE id = 1");
    assertEquals(Map.of("accounts_flow", 1, "accounts_history_flow", 1), batches(p.run()),
        "a target changed by hand and an edited query are read");
    assertEquals(List.of("[1,10]"), p.rows("SELECT * FROM accounts WHERE id = 1"), "the next snapshot undid the change");
    assertEquals(List.of("[991]", "[992]"), p.rows("SELECT id FROM accounts_history WHERE __END_AT IS NULL AND id < 993"));
    assertEquals(10L, p.spark().table(p.database() + ".accounts_history").where("__END_AT IS NULL").count());
  }

  /**
   * A snapshot compared with its target has its expectations counted and its keys checked by the
   * comparison itself, SCD 1 and 2 alike (`bench snapshot` measures what that spares): a key twice
   * (each time unchanged, or new) or NULL, or a failed FAIL expectation, fails the flow with
   * nothing of that snapshot applied; DROP and WARN expectations are counted.
   */
  @Test
  void aComparedSnapshotIsCheckedAsItIsCompared() {
    String flows = """
        CREATE STREAMING TABLE latest (
          CONSTRAINT named EXPECT (name IS NOT NULL) ON VIOLATION DROP ROW,
          CONSTRAINT short EXPECT (length(name) < 5));
        CREATE FLOW latest_flow AS AUTO CDC INTO latest FROM SNAPSHOT people KEYS (id);
        CREATE STREAMING TABLE versions (CONSTRAINT no_boom EXPECT (coalesce(name, '') <> 'boom') ON VIOLATION FAIL UPDATE);
        CREATE FLOW versions_flow AS AUTO CDC INTO versions FROM SNAPSHOT people KEYS (id) STORED AS SCD TYPE 2;
        """;
    TestPipeline p = new TestPipeline(dir).sql(flows);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    people(p, "(1, 'a'), (2, 'b'), (3, 'c')");
    runOk(p);

    people(p, "(1, 'a'), (2, 'bb'), (4, CAST(NULL AS STRING)), (5, 'longer')");
    UpdateResult changed = p.run();
    assertTrue(changed.succeeded(), () -> changed.flows().toString());
    assertEquals(List.of("[1,a]", "[2,bb]", "[5,longer]"), p.rows("SELECT * FROM latest ORDER BY id"));
    assertEquals(List.of("[1,a,true]", "[2,b,false]", "[2,bb,true]", "[3,c,false]", "[4,null,true]", "[5,longer,true]"),
        p.rows("SELECT id, name, __END_AT IS NULL FROM versions ORDER BY id, __START_AT"));
    FlowOutcome latest = outcome(changed, "latest_flow");
    assertEquals(1, latest.rowsDropped(), latest::toString);
    assertEquals(Map.of("named (drop)", 1L, "short (warn)", 2L), latest.expectationFailures(), latest::toString);
    assertEquals(Map.of("snapshot_rows", 3L, "target_rows_inserted", 1L, "target_rows_updated", 1L, "target_rows_deleted", 1L),
        latest.kindMetrics(), latest::toString);
    long[] commits = {commits(p, "latest"), commits(p, "versions")};
    people(p, "(1, 'a'), (2, 'bb'), (2, 'bb'), (5, 'longer')");
    UpdateResult duplicate = p.run();
    people(p, "(1, 'a'), (2, 'bb'), (5, 'longer'), (6, 'f'), (6, 'g')");
    UpdateResult newDuplicate = p.run();
    people(p, "(1, 'a'), (CAST(NULL AS INT), 'n')");
    UpdateResult nullKey = p.run();
    people(p, "(1, 'a'), (2, 'boom')");
    UpdateResult boom = p.run();
    for (String flow : List.of("latest_flow", "versions_flow")) {
      assertEquals("SNAPSHOT_DUPLICATE_KEY", errorClass(duplicate, flow));
      assertTrue(message(duplicate, flow).contains("2 rows with key {\"id\":2}"), message(duplicate, flow));
      assertEquals("SNAPSHOT_DUPLICATE_KEY", errorClass(newDuplicate, flow));
      assertTrue(message(newDuplicate, flow).contains("2 rows with key {\"id\":6}"), message(newDuplicate, flow));
      assertEquals("SNAPSHOT_NULL_KEY", errorClass(nullKey, flow));
    }
    assertEquals("EXPECTATION_VIOLATION", errorClass(boom, "versions_flow"));
    assertTrue(message(boom, "versions_flow").contains("no_boom"), message(boom, "versions_flow"));
    assertEquals(commits[1], commits(p, "versions"), "nothing of a refused snapshot was applied");
    assertEquals(commits[0] + 1, commits(p, "latest"), "only the last snapshot, which latest_flow takes, was applied to it");
    assertEquals(List.of("[1,a]", "[2,boom]"), p.rows("SELECT * FROM latest ORDER BY id"));

    // A snapshot that Spark knows to be empty as it plans it: every row goes, every version closes.
    p.sql(flows.replace("FROM SNAPSHOT people KEYS", "FROM SNAPSHOT (SELECT * FROM people WHERE false) KEYS"));
    runOk(p);
    assertEquals(List.of(), p.rows("SELECT * FROM latest"));
    assertEquals(List.of(), p.rows("SELECT * FROM versions WHERE __END_AT IS NULL"));
  }

  private static void people(TestPipeline p, String rows) {
    p.spark().sql("CREATE OR REPLACE TABLE " + p.database() + ".people USING delta AS SELECT * FROM VALUES " + rows + " AS t(id, name)");
  }

  private static Map<String, Integer> batches(UpdateResult result) {
    assertTrue(result.succeeded(), () -> result.flows().toString());
    return result.flows().stream().filter(f -> f.flow().startsWith("accounts"))
        .collect(java.util.stream.Collectors.toMap(FlowOutcome::flow, FlowOutcome::batches));
  }

  @Test
  void eachSnapshotErrorFailsItsFlowAndAppliesNothingOfThatSnapshot() {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE dup;
        CREATE FLOW dup_flow AS AUTO CDC INTO dup
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'a'), (1, 'b'), (2, 'c') AS t(id, name))
        WITH VERSION (SELECT 1 AS v WHERE last_snapshot_version() IS NULL)
        KEYS (id);

        CREATE STREAMING TABLE null_version;
        CREATE FLOW null_version_flow AS AUTO CDC INTO null_version
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'a') AS t(id, name))
        WITH VERSION (SELECT CAST(NULL AS INT) AS v)
        KEYS (id);

        CREATE STREAMING TABLE stuck;
        CREATE FLOW stuck_flow AS AUTO CDC INTO stuck
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'a') AS t(id, name))
        WITH VERSION (SELECT 7 AS v)
        KEYS (id);

        CREATE STREAMING TABLE none;
        CREATE FLOW none_flow AS AUTO CDC INTO none
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'a') AS t(id, name))
        WITH VERSION (SELECT 1 AS v WHERE false)
        KEYS (id);

        CREATE STREAMING TABLE once;
        CREATE FLOW once_flow AS AUTO CDC ONCE INTO once
        FROM SNAPSHOT (SELECT current_snapshot_version() AS id, 'x' AS name)
        WITH VERSION (SELECT coalesce(last_snapshot_version(), 0) + 1 AS v)
        KEYS (id);
        """);
    UpdateResult result = p.run();
    assertEquals("SNAPSHOT_DUPLICATE_KEY", errorClass(result, "dup_flow"));
    assertTrue(message(result, "dup_flow").contains("2 rows with key {\"id\":1}"), message(result, "dup_flow"));
    assertEquals("SNAPSHOT_NULL_VERSION", errorClass(result, "null_version_flow"));
    assertEquals("SNAPSHOT_VERSION_NOT_INCREASING", errorClass(result, "stuck_flow"));
    assertTrue(message(result, "stuck_flow").contains("version 7, which is not greater than the last applied version 7"),
        message(result, "stuck_flow"));
    assertEquals("SNAPSHOT_NONE", errorClass(result, "none_flow"));
    assertEquals(List.of(), p.rows("SELECT * FROM dup"));
    assertEquals(List.of(), p.rows("SELECT * FROM null_version"));
    assertEquals(List.of("[1,a]"), p.rows("SELECT * FROM stuck"), "the first snapshot was applied before the error");
    assertEquals(List.of("[1,x]"), p.rows("SELECT * FROM once"), "ONCE applies a single snapshot");

    p.run();
    assertEquals(List.of("[1,x]"), p.rows("SELECT * FROM once"), "ONCE skips the flow afterwards");
    p.run(new UpdateOptions(false, List.of("once"), List.of()));
    assertEquals(List.of("[1,x]"), p.rows("SELECT * FROM once"), "a full refresh applies the first snapshot again");
  }

  @Test
  void theVersionFunctionsOutsideASnapshotFlowAreAnError() {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE MATERIALIZED VIEW latest AS
        SELECT last_snapshot_version() AS v;
        """);
    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("SNAPSHOT_VERSION_FUNCTION_MISPLACED", e.errorClass(), e.userMessage());
    assertTrue(e.userMessage().startsWith("transformations/pipeline.sql:2: last_snapshot_version() can only be"
        + " called in the WITH VERSION query"), e.userMessage());
  }

  @Test
  void aSnapshotBackfillThenAChangeFeedShareOneTable() throws Exception {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE customers;
        CREATE FLOW backfill AS AUTO CDC ONCE INTO customers
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'Ana'), (2, 'Bo'), (3, 'Cy'), (4, 'Di') AS t(id, name))
        WITH VERSION (SELECT 10 AS version)
        KEYS (id);
        CREATE FLOW changes AS AUTO CDC INTO customers
        FROM STREAM(customer_changes)
        KEYS (id)
        APPLY AS DELETE WHEN op = 'D'
        SEQUENCE BY seq
        COLUMNS * EXCEPT (op, seq);
        """);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".customer_changes (id INT, name STRING, op STRING, seq INT)"
        + " USING delta");
    runOk(p);
    assertEquals(List.of("[1,Ana]", "[2,Bo]", "[3,Cy]", "[4,Di]"), p.rows("SELECT * FROM customers"));
    assertEquals(List.of("[delta.enableChangeDataFeed,true]"),
        p.rows("SHOW TBLPROPERTIES customers ('delta.enableChangeDataFeed')"),
        "a target that snapshot and change-feed flows share keeps a change data feed");
    // As if the process died after the snapshot's commit, before the state store learnt it:
    // the change feed flow must finish the snapshot before it applies anything.
    Path target = dir.resolve(".sluice/checkpoints/spark_catalog." + p.database() + ".customers");
    Files.move(target.resolve("backfill/snapshots/last"), target.resolve("backfill/snapshots/pending"));
    StoragePath.local(target.resolve(".auto-cdc-state")).delete();
    p.spark().sql("INSERT INTO " + p.database() + ".customer_changes VALUES"
        + " (1, 'Ana (late)', 'U', 5), (2, 'Bo Jr', 'U', 11), (3, NULL, 'D', 12), (4, NULL, 'D', 9), (5, 'Ed', 'U', 13)");
    runOk(p);
    assertEquals(List.of("[1,Ana]", "[2,Bo Jr]", "[4,Di]", "[5,Ed]"), p.rows("SELECT * FROM customers"),
        "events older than the snapshot's version are ignored; newer ones apply");
  }

  @Test
  void aSnapshotWaitsForAChangeFeedBatchLeftBetweenItsTwoCommits() throws Exception {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE customers;
        CREATE FLOW snap AS AUTO CDC INTO customers FROM SNAPSHOT (SELECT * FROM customer_snapshot) KEYS (id);
        CREATE FLOW changes AS AUTO CDC INTO customers FROM STREAM(customer_changes) KEYS (id)
          SEQUENCE BY ts COLUMNS * EXCEPT (ts);
        """);
    String db = p.database();
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + db);
    p.spark().sql("CREATE TABLE " + db + ".customer_snapshot (id INT, name STRING) USING delta");
    p.spark().sql("CREATE TABLE " + db + ".customer_changes (id INT, name STRING, ts TIMESTAMP) USING delta");
    p.spark().sql("INSERT INTO " + db + ".customer_snapshot VALUES (1, 'Ana')");
    runOk(p);
    p.spark().sql("INSERT INTO " + db + ".customer_changes VALUES (2, 'Bo', TIMESTAMP '2099-01-01 00:00:00')");
    runOk(p);
    // As if the process died after the change feed batch's target commit, before its store
    // commit and its checkpoint: only that flow can finish the batch.
    Path target = dir.resolve(".sluice/checkpoints/spark_catalog." + db + ".customers");
    assertEquals(1, ReplayedBatchTest.forgetLastCheckpointCommits(target.resolve("changes")));
    ReplayedBatchTest.dropLastCommit(target.resolve(".auto-cdc-state/_delta_log"));
    UpdateResult waiting = p.run();
    FlowOutcome snap = waiting.flows().stream().filter(f -> f.flow().endsWith("snap")).findFirst().orElseThrow();
    assertEquals(FlowState.FAILED, snap.state(), waiting.flows()::toString);
    assertTrue(snap.errorMessage().orElseThrow().contains("AUTO CDC flow 'changes' stopped in the middle of batch"),
        snap.errorMessage()::toString);
    runOk(p);
    assertEquals(List.of("[1,Ana]", "[2,Bo]"), p.rows("SELECT * FROM customers"),
        "the change feed finished its batch; the snapshot then keeps the newer key");
  }

  @Test
  void aSharedTargetNeedsTheSameKeys() {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE customers;
        CREATE FLOW backfill AS AUTO CDC INTO customers
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'Ana') AS t(id, name)) WITH VERSION (SELECT 10 AS version)
        KEYS (id);
        CREATE FLOW changes AS AUTO CDC INTO customers
        FROM STREAM(customer_changes) KEYS (name) SEQUENCE BY seq COLUMNS * EXCEPT (seq);
        """);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".customer_changes (id INT, name STRING, seq INT) USING delta");
    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("AUTO_CDC_TARGET_SHARED", e.errorClass(), e.userMessage());
    assertTrue(e.getMessage().contains("KEYS (name)") && e.getMessage().contains("KEYS (id)"), e.getMessage());
    assertFalse(p.spark().catalog().tableExists(p.database() + ".customers"), "nothing is created");

    p.sql("""
        CREATE STREAMING TABLE customers;
        CREATE FLOW backfill AS AUTO CDC INTO customers
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'Ana') AS t(id, name)) WITH VERSION (SELECT '10' AS version)
        KEYS (id);
        CREATE FLOW changes AS AUTO CDC INTO customers
        FROM STREAM(customer_changes) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq);
        """);
    e = assertThrows(SluiceException.class, p::run);
    assertEquals("AUTO_CDC_TARGET_SHARED", e.errorClass(), e.userMessage());
    assertTrue(e.getMessage().contains("SEQUENCE BY is of type INT but this flow's versions are of type STRING"),
        e.getMessage());

    p.sql("""
        CREATE STREAMING TABLE customers;
        CREATE FLOW backfill AS AUTO CDC INTO customers
        FROM SNAPSHOT (SELECT * FROM VALUES (1, 'Ana') AS t(id, name)) WITH VERSION (SELECT 10 AS version)
        KEYS (id);
        CREATE FLOW changes AS AUTO CDC INTO customers
        FROM STREAM(customer_changes) KEYS (id) APPLY AS TRUNCATE WHEN name IS NULL SEQUENCE BY seq
        COLUMNS * EXCEPT (seq);
        """);
    e = assertThrows(SluiceException.class, p::run);
    assertEquals("AUTO_CDC_TARGET_SHARED", e.errorClass(), e.userMessage());
    assertTrue(e.getMessage().contains("APPLY AS TRUNCATE WHEN"), e.getMessage());
  }

  private static long commits(TestPipeline p, String table) {
    return p.spark().sql("DESCRIBE HISTORY " + p.database() + "." + table).count();
  }

  private static String errorClass(UpdateResult result, String flow) {
    Throwable failure = outcome(result, flow).failure().orElseThrow(() -> new AssertionError(flow + " did not fail"));
    return failure instanceof SluiceException e ? e.errorClass() : failure.toString();
  }

  private static String message(UpdateResult result, String flow) {
    return outcome(result, flow).errorMessage().orElse("");
  }

  private static FlowOutcome outcome(UpdateResult result, String flow) {
    return result.flows().stream().filter(f -> f.flow().equals(flow)).findFirst().orElseThrow();
  }
}
