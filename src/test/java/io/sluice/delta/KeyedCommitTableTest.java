package io.sluice.delta;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.TestPipeline;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.Tuple2;

/**
 * A table written by {@link KeyedCommit} is a plain Delta table: its history says what wrote each
 * commit, every version reads back, OPTIMIZE, REORG and VACUUM work on it; a commit that loses to
 * a concurrent writer is made again; tables it cannot write are named with the reason.
 */
class KeyedCommitTableTest {
  private final SparkSession spark = SharedSpark.session();

  private String table(String properties) {
    String db = TestPipeline.uniqueDatabase();
    spark.sql("CREATE DATABASE " + db);
    String table = db + ".t";
    spark.sql("CREATE TABLE " + table + " (id INT, name STRING) USING delta TBLPROPERTIES (" + properties + ")");
    // Two files, so that OPTIMIZE has something to compact.
    spark.sql("INSERT INTO " + table + " SELECT id, concat('n', id) FROM range(0, 25)");
    spark.sql("INSERT INTO " + table + " SELECT id, concat('n', id) FROM range(25, 50)");
    return table;
  }

  private KeyedCommit commit(String table, String operation) {
    String[] parts = table.split("\\.");
    Tuple2<DeltaLog, Snapshot> latest = DeltaLog.forTableWithSnapshot(spark, new TableIdentifier(parts[1], Option.apply(parts[0])));
    return KeyedCommit.to(spark, latest._1(), latest._2(), operation);
  }

  /** Replaces the rows of {@code ids} with one row each, named {@code name}. */
  private KeyedCommit.Committed replace(String table, String ids, String name, Runnable beforeCommit) {
    Dataset<Row> keys = spark.sql("SELECT id FROM VALUES " + ids + " AS k(id)");
    KeyedCommit commit = commit(table, "TEST REPLACE")
        .removing(keys, List.of("id"), col("t.id").between(0, 1000))
        .appending(keys.selectExpr("id", "'" + name + "' AS name"))
        .parameter("keys", "id")
        .metric("numKeysReplaced", keys.count());
    KeyedCommit.beforeCommit = beforeCommit;
    try {
      return commit.commit();
    } finally {
      KeyedCommit.beforeCommit = () -> {};
    }
  }

  private List<String> rows(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void rowsThatComeAreWrittenInTheTablesTypes() {
    String table = table("'delta.enableDeletionVectors' = 'true'");
    Dataset<Row> keys = spark.range(1, 3).toDF("id");
    commit(table, "TEST REPLACE").removing(keys, List.of("id"), col("t.id").between(0, 1000))
        .appending(keys.selectExpr("id", "id * 1.5 AS name"))
        .commit();
    List<String> rows = rows("SELECT * FROM " + table + " WHERE id < 3");
    assertEquals(List.of("[0,n0]", "[1,1.5]", "[2,3.0]"), rows, "a BIGINT key and a DECIMAL name, read as INT and STRING");
  }

  @Test
  void historyTimeTravelAndMaintenanceSeeAPlainDeltaTable() {
    String table = table("'delta.enableDeletionVectors' = 'true'");
    spark.conf().set("spark.databricks.delta.commitInfo.userMetadata", "{\"batch\":7}");
    KeyedCommit.Committed first;
    try {
      first = replace(table, "(1), (2), (70)", "first", () -> {});
    } finally {
      spark.conf().unset("spark.databricks.delta.commitInfo.userMetadata");
    }
    assertEquals(2, first.rowsRemoved());
    assertEquals(3, first.rowsAdded());
    replace(table, "(2), (3)", "second", () -> {});
    List<String> afterSecond = rows("SELECT * FROM " + table);
    assertEquals(51, afterSecond.size());
    assertTrue(afterSecond.contains("[2,second]") && afterSecond.contains("[1,first]") && afterSecond.contains("[70,first]"));

    Row history = spark.sql("DESCRIBE HISTORY " + table).where("version = " + first.version().orElseThrow()).first();
    assertEquals("TEST REPLACE", history.getString(history.fieldIndex("operation")));
    assertEquals("{\"batch\":7}", history.getString(history.fieldIndex("userMetadata")));
    Map<String, String> metrics = history.getJavaMap(history.fieldIndex("operationMetrics"));
    assertEquals("2", metrics.get("numDeletedRows"), metrics::toString);
    assertEquals("3", metrics.get("numOutputRows"), metrics::toString);
    assertEquals("3", metrics.get("numKeysReplaced"), metrics::toString);
    assertEquals("0", metrics.get("numTargetRowsCopied"), metrics::toString);
    Map<String, String> parameters = history.getJavaMap(history.fieldIndex("operationParameters"));
    assertEquals("id", parameters.get("keys"), parameters::toString);

    List<String> atFirst = rows("SELECT * FROM " + table + " VERSION AS OF " + first.version().orElseThrow());
    assertTrue(atFirst.contains("[2,first]") && atFirst.contains("[3,n3]"), atFirst::toString);
    assertEquals(50, rows("SELECT * FROM " + table + " VERSION AS OF " + (first.version().orElseThrow() - 1)).size());

    spark.sql("REORG TABLE " + table + " APPLY (PURGE)");
    spark.sql("OPTIMIZE " + table);
    spark.conf().set("spark.databricks.delta.retentionDurationCheck.enabled", "false");
    try {
      spark.sql("VACUUM " + table + " RETAIN 0 HOURS");
    } finally {
      spark.conf().unset("spark.databricks.delta.retentionDurationCheck.enabled");
    }
    assertEquals(afterSecond, rows("SELECT * FROM " + table));
    Row detail = spark.sql("DESCRIBE DETAIL " + table).first();
    assertEquals(1L, detail.getLong(detail.fieldIndex("numFiles")), "OPTIMIZE compacted the files deletion vectors left");
  }

  @Test
  void aCommitThatLosesToAConcurrentOptimizeOrDeleteIsMadeAgain() {
    String table = table("'delta.enableDeletionVectors' = 'true'");
    KeyedCommit.Committed afterOptimize = replace(table, "(4), (5)", "x",
        () -> spark.sql("OPTIMIZE " + table));
    KeyedCommit.Committed afterDelete = replace(table, "(6), (7)", "y",
        () -> spark.sql("DELETE FROM " + table + " WHERE id IN (8, 9)"));
    List<String> rows = rows("SELECT * FROM " + table);
    assertEquals(48, rows.size(), rows::toString);
    assertTrue(rows.containsAll(List.of("[4,x]", "[5,x]", "[6,y]", "[7,y]")), rows::toString);
    assertTrue(rows.stream().noneMatch(r -> r.startsWith("[8,") || r.startsWith("[9,")), rows::toString);
    assertEquals(2, afterOptimize.rowsRemoved());
    assertEquals(2, afterDelete.rowsRemoved());
    assertEquals(List.of(2, 2), List.of(afterOptimize.attempts(), afterDelete.attempts()),
        "the first tries lost to OPTIMIZE and to the DELETE");
    List<String> operations = spark.sql("DESCRIBE HISTORY " + table).select("operation").collectAsList().stream()
        .map(Row::toString).toList();
    assertEquals(1, operations.stream().filter(o -> o.contains("OPTIMIZE")).count(), operations::toString);
    assertEquals(2, operations.stream().filter(o -> o.contains("TEST REPLACE")).count(),
        () -> "each batch committed once, after the concurrent commit: " + operations);
  }

  @Test
  void tablesTheWriterCannotWriteAreNamedWithTheReason() {
    assertEquals(Optional.empty(), whyNot(table("'delta.enableDeletionVectors' = 'true'")));
    assertEquals(Optional.of("it has no deletion vectors (delta.enableDeletionVectors)"),
        whyNot(table("'delta.enableDeletionVectors' = 'false'")));
    assertEquals(Optional.of("it maps column names (delta.columnMapping.mode = name)"),
        whyNot(table("'delta.enableDeletionVectors' = 'true', 'delta.columnMapping.mode' = 'name'")));
    assertEquals(Optional.of("it has the table feature rowTracking"),
        whyNot(table("'delta.enableDeletionVectors' = 'true', 'delta.enableRowTracking' = 'true'")));
    assertEquals(Optional.of("it is append-only (delta.appendOnly)"),
        whyNot(table("'delta.enableDeletionVectors' = 'true', 'delta.appendOnly' = 'true'")));
  }

  private Optional<String> whyNot(String table) {
    String[] parts = table.split("\\.");
    return WriterSupport.whyNot(DeltaLog.forTableWithSnapshot(spark, new TableIdentifier(parts[1], Option.apply(parts[0])))._2());
  }
}
