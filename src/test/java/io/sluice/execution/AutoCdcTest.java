package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.graph.DatasetName;
import io.sluice.storage.StoragePath;
import io.sluice.testsupport.CdcModel;
import io.sluice.testsupport.SparkJobs;
import io.sluice.testsupport.TestPipeline;
import io.sluice.testsupport.UsersExample;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeoutException;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTO CDC flows through the real engine (SEMANTICS §4). */
class AutoCdcTest {
  static final String USERS = """
      CREATE STREAMING TABLE users_scd1;
      CREATE FLOW users_scd1_flow AS AUTO CDC INTO users_scd1
      FROM STREAM(users_cdc)
      KEYS (userId)
      APPLY AS DELETE WHEN operation = "DELETE"
      SEQUENCE BY sequenceNum
      COLUMNS * EXCEPT (operation, sequenceNum)
      STORED AS SCD TYPE 1;

      CREATE STREAMING TABLE users_scd2;
      CREATE FLOW users_scd2_flow AS AUTO CDC INTO users_scd2
      FROM STREAM(users_cdc)
      KEYS (userId)
      APPLY AS DELETE WHEN operation = "DELETE"
      SEQUENCE BY sequenceNum
      COLUMNS * EXCEPT (operation, sequenceNum)
      STORED AS SCD TYPE 2;
      """;

  @TempDir Path dir;

  private TestPipeline pipeline(String definitions) {
    return UsersExample.withSource(new TestPipeline(dir).sql(definitions));
  }

  private static void insert(TestPipeline p, String values) {
    UsersExample.insert(p, values);
  }

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  /** Also: in the Spark UI, a batch's jobs say which part of the batch they are. */
  @Test
  void theDocumentedUsersExample() {
    TestPipeline p = pipeline(USERS);
    insert(p, UsersExample.EVENTS);
    List<String> jobs = SparkJobs.descriptions(p.spark(), () -> runOk(p));
    assertEquals(UsersExample.SCD1, p.rows("SELECT * FROM users_scd1"));
    assertEquals(UsersExample.SCD2, p.rows("SELECT * FROM users_scd2"));
    String target = "spark_catalog." + p.database() + ".users_scd1";
    for (String phase : List.of("counts", "changes > counts", "write " + target)) {
      assertTrue(jobs.stream().anyMatch(d -> d.contains("batch = 0") && d.endsWith(" · sluice: " + phase)),
          () -> "a job of the stream's batch 0 described as " + phase + ": " + jobs);
    }
  }

  /**
   * Each Spark job costs its scheduling whatever its size: a small batch of updates, a delete and
   * an insert after the load runs at most 6: the expectations' count (which samples the keys), the
   * events' plan, the state's append, the target's rewritten files, and the two commits' own. The
   * files of the state and of the target are chosen on the driver from the version's checksum.
   */
  @Test
  void aSmallBatchRunsFewSparkJobs() {
    TestPipeline p = pipeline(USERS.substring(0, USERS.indexOf("CREATE STREAMING TABLE users_scd2")));
    insert(p, "(124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1), "
        + "(125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2)");
    runOk(p);
    insert(p, "(123, null, null, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6), "
        + "(127, 'Ann', 'Puebla', 'INSERT', 1)");
    List<String> jobs = SparkJobs.descriptions(p.spark(), () -> runOk(p)).stream()
        .filter(d -> d.contains("batch = 1")).toList();
    assertEquals(List.of("[124,Raul,Oaxaca]", "[125,Mercedes,Guadalajara]", "[126,Lily,Cancun]", "[127,Ann,Puebla]"),
        p.rows("SELECT * FROM users_scd1 ORDER BY userId"));
    assertTrue(jobs.size() <= 6, () -> jobs.size() + " jobs for the batch:\n" + String.join("\n", jobs));
  }

  /**
   * SCD type 1 without IGNORE NULL UPDATES: a key's last event decides its row, so a batch reads
   * only the keys, sequences and operations of the stored events, and an upsert that repeats the
   * row's values at a later sequence rewrites it (as a MERGE's update would). A batch whose event
   * meets a stored one at a key and sequence reads the stored values, which decide between them.
   */
  @Test
  void scd1ReadsOnlyKeysSequencesAndOperationsFromItsState() {
    TestPipeline p = pipeline(USERS.substring(0, USERS.indexOf("CREATE STREAMING TABLE users_scd2"))
        + "CREATE STREAMING TABLE scd1_changes AS SELECT userId, city, _change_type FROM STREAM(users_scd1);\n");
    insert(p, "(123, 'Isabel', 'Monterrey', 'INSERT', 1), (124, 'Raul', 'Oaxaca', 'INSERT', 1)");
    runOk(p);

    insert(p, "(123, 'Isabel', 'Monterrey', 'UPDATE', 2), (124, 'Raul', 'Puebla', 'UPDATE', 2), (125, 'Ann', 'Leon', 'INSERT', 1)");
    List<Map<String, Long>> figures = new ArrayList<>();
    List<String> stateScans = stateScans(p, () -> {
      UpdateResult second = p.run();
      assertTrue(second.succeeded(), () -> second.flows().toString());
      figures.add(second.flows().get(0).kindMetrics());
    });
    assertEquals(List.of("[123,Isabel,Monterrey]", "[124,Raul,Puebla]", "[125,Ann,Leon]"),
        p.rows("SELECT * FROM users_scd1 ORDER BY userId"));
    assertTrue(!stateScans.isEmpty() && stateScans.stream().noneMatch(scan -> scan.contains("__sluice_values")),
        () -> "the state's scans: " + stateScans);
    assertEquals(2L, figures.get(0).get("target_rows_updated"), figures::toString);
    assertEquals(1L, figures.get(0).get("target_rows_inserted"), figures::toString);
    assertEquals(List.of("[123,Monterrey,update_postimage]", "[123,Monterrey,update_preimage]"),
        p.rows("SELECT * FROM scd1_changes WHERE userId = 123 AND _change_type LIKE 'update%' ORDER BY 3"),
        "an upsert repeating the row's values is an update");

    // 124 at sequence 2 again: the stored event's values decide that this one is the same, so ignored.
    insert(p, "(124, 'Raul', 'Puebla', 'UPDATE', 2)");
    List<String> tiedScans = stateScans(p, () -> {
      UpdateResult again = p.run();
      assertTrue(again.succeeded(), () -> again.flows().toString());
      assertEquals(1L, again.flows().get(0).kindMetrics().get("num_ignored_events"));
      assertEquals(0L, again.flows().get(0).kindMetrics().get("target_rows_updated"));
    });
    assertTrue(tiedScans.stream().anyMatch(scan -> scan.contains("__sluice_values")), () -> "the state's scans: " + tiedScans);
    assertEquals(List.of("[124,Raul,Puebla]"), p.rows("SELECT * FROM users_scd1 WHERE userId = 124"));
  }

  /** What the queries that {@code work} runs read of an AUTO CDC state table: the read schema of each scan. */
  private static List<String> stateScans(TestPipeline p, Runnable work) {
    List<String> scans = Collections.synchronizedList(new ArrayList<>());
    SparkListener listener = new SparkListener() {
      @Override
      public void onOtherEvent(SparkListenerEvent event) {
        if (event instanceof SparkListenerSQLExecutionStart start) {
          // The plan as EXPLAIN FORMATTED gives it: a block of lines per node, a blank line between.
          for (String node : start.physicalPlanDescription().split("\n\n")) {
            if (node.contains(".auto-cdc-state]") && node.contains("ReadSchema: ")) {
              scans.add(node.substring(node.indexOf("ReadSchema: ")).lines().findFirst().orElseThrow());
            }
          }
        }
      }
    };
    p.spark().sparkContext().addSparkListener(listener);
    try {
      work.run();
      p.spark().sparkContext().listenerBus().waitUntilEmpty();
    } catch (TimeoutException e) {
      throw new IllegalStateException(e);
    } finally {
      p.spark().sparkContext().removeSparkListener(listener);
    }
    return List.copyOf(scans);
  }

  @Test
  void lateEventsInLaterBatchesLandWhereTheyBelong() {
    TestPipeline p = pipeline(USERS);
    insert(p, "(124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1), "
        + "(125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2)");
    runOk(p);
    insert(p, "(123, null, null, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6)");
    runOk(p);
    insert(p, "(125, 'Mercedes', 'Mexicali', 'UPDATE', 5), (123, 'Isabel', 'Chihuahua', 'UPDATE', 5)");
    runOk(p);
    assertEquals(UsersExample.SCD1, p.rows("SELECT * FROM users_scd1"));
    assertEquals(UsersExample.SCD2, p.rows("SELECT * FROM users_scd2"));
  }

  @Test
  void metricsWarningsDownstreamChangeFeedAndOnce() {
    TestPipeline p = pipeline(USERS.substring(0, USERS.indexOf("CREATE STREAMING TABLE users_scd2")) + """
        CREATE STREAMING TABLE scd1_changes AS SELECT userId, name, _change_type FROM STREAM(users_scd1);
        CREATE STREAMING TABLE once_target;
        CREATE FLOW once_flow AS AUTO CDC ONCE INTO once_target FROM users_cdc KEYS (userId)
          SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum);
        """);
    insert(p, "(124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1), "
        + "(125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2), "
        + "(126, 'Lily', 'Cancun', 'INSERT', 2), (124, 'Raul', 'Puebla', 'UPDATE', 1)");
    UpdateResult first = p.run();
    assertTrue(first.succeeded(), () -> first.flows().toString());
    assertEquals(List.of("[123,Isabel,Monterrey]", "[124,Raul,Puebla]", "[125,Mercedes,Tijuana]", "[126,Lily,Cancun]"),
        p.rows("SELECT * FROM users_scd1"), "of two upserts at one sequence, the one whose values sort last");
    Map<String, Long> figures = first.flows().get(0).kindMetrics();
    assertEquals(4L, figures.get("num_upserted_rows"));
    assertEquals(0L, figures.get("num_deleted_rows"));
    assertEquals(2L, figures.get("num_ignored_events"), "the duplicate and the losing rival");
    List<String> warnings = eventLog(p).where("level = 'WARN' AND origin.flow_name = 'users_scd1_flow'")
        .select("details").as(Encoders.STRING()).collectAsList();
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).contains("\"keys_with_rival_upserts\":1"), warnings.get(0));

    // A rival of a stored upsert (126 at sequence 2) that loses: ignored, and warned about. A stored
    // event delivered again (124 at sequence 1): ignored, and not stored twice.
    insert(p, "(123, null, null, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6), (126, 'Lily', 'Acapulco', 'UPDATE', 2), "
        + "(124, 'Raul', 'Puebla', 'UPDATE', 1)");
    UpdateResult second = p.run();
    assertTrue(second.succeeded(), () -> second.flows().toString());
    List<String> laterWarnings = eventLog(p).where("level = 'WARN' AND origin.flow_name = 'users_scd1_flow' AND origin.update_id = '"
        + second.updateId() + "'").select("details").as(Encoders.STRING()).collectAsList();
    assertEquals(1, laterWarnings.size(), laterWarnings.toString());
    assertTrue(laterWarnings.get(0).contains("\"keys_with_rival_upserts\":1"), laterWarnings.get(0));
    assertEquals(1L, second.flows().get(0).kindMetrics().get("num_deleted_rows"));
    assertEquals(1L, second.flows().get(0).kindMetrics().get("num_upserted_rows"));
    assertEquals(2L, second.flows().get(0).kindMetrics().get("num_ignored_events"), "the losing rival and the stored event");
    String details = eventLog(p).where("level = 'METRICS' AND origin.flow_name = 'users_scd1_flow' AND origin.update_id = '"
        + second.updateId() + "'").select("details").as(Encoders.STRING()).first();
    assertTrue(details.contains("\"num_upserted_rows\":1") && details.contains("\"num_deleted_rows\":1"), details);
    assertEquals(List.of(
            "[123,Isabel,delete]", "[123,Isabel,insert]", "[124,Raul,insert]", "[125,Mercedes,insert]",
            "[125,Mercedes,update_postimage]", "[125,Mercedes,update_preimage]", "[126,Lily,insert]"),
        p.rows("SELECT * FROM scd1_changes"), "a downstream stream reads the target's changes");
    assertEquals(List.of("[123,Isabel,Monterrey]", "[124,Raul,Puebla]", "[125,Mercedes,Tijuana]", "[126,Lily,Cancun]"),
        p.rows("SELECT * FROM once_target"), "a ONCE flow ran on the first update only");
  }

  /**
   * A stored event delivered again (an at-least-once source replaying) changes nothing and is not
   * stored twice, for SCD type 2 and for SCD type 1 with IGNORE NULL UPDATES, whose states keep
   * more than each key's last event.
   */
  @Test
  void aStoredEventDeliveredAgainIsIgnoredWhateverTheStateKeeps() {
    TestPipeline p = pipeline(USERS.substring(USERS.indexOf("CREATE STREAMING TABLE users_scd2")) + """
        CREATE STREAMING TABLE users_merged;
        CREATE FLOW users_merged_flow AS AUTO CDC INTO users_merged FROM STREAM(users_cdc) KEYS (userId)
          APPLY AS DELETE WHEN operation = "DELETE" SEQUENCE BY sequenceNum
          COLUMNS * EXCEPT (operation, sequenceNum) IGNORE NULL UPDATES;
        """);
    insert(p, "(123, 'Isabel', 'Monterrey', 'INSERT', 1), (123, 'Isabel', null, 'UPDATE', 3), "
        + "(124, 'Raul', 'Oaxaca', 'INSERT', 1)");
    runOk(p);
    Checkpoints checkpoints = new Checkpoints(StoragePath.root(p.spark(), p.spec().storage()));
    Map<String, Long> storedBefore = new HashMap<>();
    for (String target : List.of("users_scd2", "users_merged")) {
      storedBefore.put(target, p.spark().read().format("delta").load(checkpoints.autoCdcState(
          new DatasetName("spark_catalog", p.database(), target)).toString()).count());
    }
    List<String> scd2 = p.rows("SELECT * FROM users_scd2 ORDER BY userId, __START_AT");
    List<String> merged = p.rows("SELECT * FROM users_merged ORDER BY userId");
    assertEquals(List.of("[123,Isabel,Monterrey]", "[124,Raul,Oaxaca]"), merged, "a NULL city does not replace Monterrey");

    insert(p, "(123, 'Isabel', null, 'UPDATE', 3), (124, 'Raul', 'Oaxaca', 'INSERT', 1)");
    UpdateResult again = p.run();
    assertTrue(again.succeeded(), () -> again.flows().toString());
    assertEquals(scd2, p.rows("SELECT * FROM users_scd2 ORDER BY userId, __START_AT"));
    assertEquals(merged, p.rows("SELECT * FROM users_merged ORDER BY userId"));
    for (FlowOutcome flow : again.flows().stream().filter(f -> f.kindMetrics().containsKey("num_ignored_events")).toList()) {
      assertEquals(2L, flow.kindMetrics().get("num_ignored_events"), flow.toString());
      assertEquals(0L, flow.kindMetrics().get("num_upserted_rows"), flow.toString());
      assertEquals(0L, flow.kindMetrics().get("target_rows_inserted") + flow.kindMetrics().get("target_rows_updated")
          + flow.kindMetrics().get("target_rows_deleted"), flow.toString());
      String target = flow.dataset();
      assertEquals(storedBefore.get(target), p.spark().read().format("delta").load(checkpoints.autoCdcState(
          new DatasetName("spark_catalog", p.database(), target)).toString()).count(), target + ": stored once");
    }
    assertEquals(2, again.flows().stream().filter(f -> f.kindMetrics().containsKey("num_ignored_events")).count());
  }

  @Test
  void aLargeFirstLoadIsAppendedInKeyRanges() {
    TestPipeline p = pipeline("SET " + KeyClustering.ROWS_PER_FILE + " = 100;\n" + USERS);
    // 400 keys, an insert and then an update (a delete for every tenth key) each, scattered.
    p.spark().sql("INSERT INTO " + p.database() + ".users_cdc SELECT CAST(k AS INT), concat('name-', k), concat('city-', s),"
        + " CASE WHEN s = 1 THEN 'INSERT' WHEN k % 10 = 0 THEN 'DELETE' ELSE 'UPDATE' END, CAST(s AS INT)"
        + " FROM (SELECT pmod(id, 400) AS k, 1 + id DIV 400 AS s FROM range(800)) ORDER BY hash(k, s)");
    runOk(p);

    assertEquals(List.of("[360,360]"), p.rows("SELECT count(*), count_if(city = 'city-2') FROM users_scd1"));
    assertEquals(List.of("[760,360,40]"), p.rows("SELECT count(*), count_if(__END_AT IS NULL),"
        + " count_if(__START_AT = 1 AND __END_AT = 2 AND userId % 10 = 0) FROM users_scd2"));
    Checkpoints checkpoints = new Checkpoints(StoragePath.root(p.spark(), p.spec().storage()));
    for (String target : List.of("users_scd1", "users_scd2")) {
      assertInKeyRanges(p, p.database() + "." + target, "userId");
      assertInKeyRanges(p, "delta.`" + checkpoints.autoCdcState(new DatasetName("spark_catalog", p.database(), target))
          + "`", "userId");
    }
  }

  /** The table's files hold disjoint ranges of the key, several of them: later batches' key bounds skip files. */
  private static void assertInKeyRanges(TestPipeline p, String table, String key) {
    List<Row> files = p.spark().sql("SELECT min(" + key + "), max(" + key + ") FROM " + table
        + " GROUP BY _metadata.file_path ORDER BY 1").collectAsList();
    assertTrue(files.size() >= 4, table + ": " + files);
    for (int i = 1; i < files.size(); i++) {
      assertTrue(files.get(i - 1).getInt(1) < files.get(i).getInt(0), table + ": overlapping key ranges " + files);
    }
  }

  private static Dataset<Row> eventLog(TestPipeline p) {
    return p.spark().read().format("delta").load(p.root().resolve(".sluice/system/event_log").toString());
  }

  @Test
  void resultDoesNotDependOnArrivalOrderBatchingOrDuplicates() throws Exception {
    Random random = new Random(4_2_6);
    List<CdcModel.Event> events = new ArrayList<>();
    for (int key = 0; key < 12; key++) {
      List<Integer> sequences = new ArrayList<>();
      for (int seq = 1; seq <= 40; seq++) {
        sequences.add(seq);
      }
      Collections.shuffle(sequences, random);
      for (int i = 0; i < 1 + random.nextInt(5); i++) {
        int seq = sequences.get(i);
        boolean delete = random.nextInt(4) == 0;
        CdcModel.Event event = new CdcModel.Event(key, seq, delete, delete ? null : "n" + random.nextInt(2),
            delete ? null : "c" + random.nextInt(2));
        events.add(event);
        if (random.nextInt(8) == 0) {
          events.add(event);
        }
        if (!delete && random.nextInt(10) == 0) {
          events.add(new CdcModel.Event(key, seq, true, null, null));
        }
      }
    }
    for (int order = 0; order < 2; order++) {
      List<CdcModel.Event> shuffled = new ArrayList<>(events);
      Collections.shuffle(shuffled, random);
      TestPipeline p = new TestPipeline(Files.createDirectories(dir.resolve("order" + order))).sql("""
          CREATE TEMPORARY VIEW changes AS SELECT * EXCEPT (_rescued_data) FROM STREAM read_files('landing', format => 'json',
            maxFilesPerTrigger => 1, schema => 'id INT, name STRING, city STRING, op STRING, seq INT');
          CREATE STREAMING TABLE scd1;
          CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM STREAM(changes) KEYS (id)
            APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
          CREATE STREAMING TABLE scd2;
          CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(changes) KEYS (id)
            APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;
          """);
      int file = 0;
      for (int start = 0; start < shuffled.size(); file++) {
        int end = Math.min(shuffled.size(), start + 8 + random.nextInt(16));
        Path batch = p.root().resolve("landing/batch-" + (100 + file) + ".json");
        p.write(p.root().relativize(batch).toString(),
            String.join("\n", shuffled.subList(start, end).stream().map(CdcModel.Event::json).toList()) + "\n");
        Files.setLastModifiedTime(batch, FileTime.fromMillis(1_000_000_000_000L + file * 1000L));
        start = end;
      }
      runOk(p);
      assertEquals(CdcModel.scd1(events), p.rows("SELECT * FROM scd1"), "SCD 1, order " + order);
      assertEquals(CdcModel.scd2(events), p.rows("SELECT * FROM scd2"), "SCD 2, order " + order);
    }
  }

  /**
   * Column names users have, as keys, sequences and values, through updates that replace and
   * delete rows: a backquote, an accent, a reserved word, mixed case. (Delta's MERGE fails on a
   * backquote in a table with a change feed; Sluice's own commit does not use it.)
   */
  @Test
  void columnNamesWithBackquotesAccentsAndReservedWords() {
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE scd1 TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
        CREATE FLOW scd1_flow AS AUTO CDC INTO scd1 FROM STREAM(src) KEYS (`sel``ect`, `Clé`)
          APPLY AS DELETE WHEN `order` = 'DELETE' SEQUENCE BY `Séq` COLUMNS * EXCEPT (`order`, `Séq`);
        CREATE STREAMING TABLE scd2;
        CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(src) KEYS (`sel``ect`, `Clé`)
          APPLY AS DELETE WHEN `order` = 'DELETE' SEQUENCE BY `Séq` COLUMNS * EXCEPT (`order`, `Séq`)
          STORED AS SCD TYPE 2;
        """);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".src (`sel``ect` INT, `Clé` STRING, `ValueMixed` STRING,"
        + " `order` STRING, `Séq` INT) USING delta");
    String insert = "INSERT INTO " + p.database() + ".src VALUES ";
    p.spark().sql(insert + "(1, 'a', 'one', 'UPSERT', 1), (2, 'b', 'two', 'UPSERT', 1), (3, 'c', 'three', 'UPSERT', 1)");
    runOk(p);
    p.spark().sql(insert + "(1, 'a', 'uno', 'UPSERT', 2), (2, 'b', null, 'DELETE', 2), (3, 'c', 'late', 'UPSERT', 0)");
    runOk(p);
    assertEquals(List.of("[1,a,uno]", "[3,c,three]"), p.rows("SELECT * FROM scd1"));
    assertEquals(List.of("[1,a,one,false]", "[1,a,uno,true]", "[2,b,two,false]", "[3,c,late,false]", "[3,c,three,true]"),
        p.rows("SELECT `sel``ect`, `Clé`, `ValueMixed`, __END_AT IS NULL FROM scd2"),
        "the late event is a version of the history before the stored one");
    assertEquals(List.of("[1,a,uno,update_postimage]", "[1,a,one,update_preimage]", "[2,b,two,delete]").stream().sorted().toList(),
        p.rows("SELECT `sel``ect`, `Clé`, `ValueMixed`, _change_type FROM table_changes('" + p.database() + ".scd1', 2)"),
        "the second update's changes, in the change feed the target's definition asks for");
  }
}
