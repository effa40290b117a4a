package io.sluice.delta;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.delta.tables.DeltaTable;
import io.sluice.testsupport.KernelReader;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.TestPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import scala.Option;
import scala.Tuple2;

/**
 * The contract that lets Sluice write keyed batches on Delta's internals: on copies of one table,
 * random batches written by {@link KeyedCommit} leave exactly the rows, and the change data feed,
 * that Delta's own MERGE leaves, and Delta Kernel reads them as Spark does. A Delta upgrade that
 * changes those internals fails here.
 *
 * <p>Two shapes, as the flow kinds use the writer: REPLACE (all rows of some keys go, several
 * rows per key; the MERGE is REPLACE USING's control-row MERGE) and UPSERT (one row per key,
 * updated, deleted or inserted; the MERGE is the upsert AUTO CDC's diff used).
 */
class KeyedCommitContractTest {
  private String key2Name;
  private String quotedKey2;
  private final SparkSession spark = SharedSpark.session();

  @ParameterizedTest(name = "{0}, change data feed {1}")
  @CsvSource({"REPLACE,false", "REPLACE,true", "UPSERT,false", "UPSERT,true"})
  void randomBatchesLeaveWhatMergeLeaves(String shape, boolean feed) {
    boolean upsert = shape.equals("UPSERT");
    // Delta's MERGE cannot write the change feed of a column named with a backquote (it builds
    // the name unquoted); the writer can, but the MERGE to compare with cannot.
    key2Name = feed ? "Sélect" : "sel`ect";
    quotedKey2 = "`" + key2Name.replace("`", "``") + "`";
    String db = TestPipeline.uniqueDatabase();
    spark.sql("CREATE DATABASE " + db);
    Random random = new Random(shape.hashCode() * 31L + (feed ? 1 : 0));
    String initial = IntStream.range(0, 120)
        .mapToObj(i -> row(upsert ? i : i % 40, upsert ? key2(i % 3) : key2(random.nextInt(3)), random.nextInt(1000)))
        .collect(Collectors.joining(", "));
    for (String table : List.of("a", "b")) {
      spark.sql("CREATE TABLE " + db + "." + table + " (k INT, " + quotedKey2 + " STRING, v INT) USING delta"
          + " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'delta.enableChangeDataFeed' = '" + feed + "')");
      // Several files, so that bounds skip some and deletion vectors pile up on others.
      spark.sql("INSERT INTO " + db + "." + table + " SELECT * FROM VALUES " + initial + " AS v(k, s, v)"
          + " DISTRIBUTE BY k % 4");
    }
    Set<Integer> live = new TreeSet<>(IntStream.range(0, 120).boxed().toList());
    for (int round = 1; round <= 4; round++) {
      List<String> going = new ArrayList<>();
      List<String> coming = new ArrayList<>();
      int low = random.nextInt(60);
      Set<Integer> picked = new TreeSet<>();
      for (int i = 0; i < 12; i++) {
        picked.add(low + random.nextInt(40));
      }
      for (int k : picked) {
        // UPSERT: one row per key, updated or deleted; REPLACE: every row of (k, k2) goes.
        String k2 = upsert ? key2(k % 3) : key2(random.nextInt(3));
        // An update is of a row the table holds (as the diff that feeds the writer only makes).
        boolean update = upsert && live.contains(k) && random.nextBoolean();
        if (!update) {
          live.remove(k);
        }
        going.add("(" + k + ", " + k2 + ", " + (update ? "'update_preimage'" : "'delete'") + ")");
        if (update) {
          coming.add("(" + k + ", " + k2 + ", " + random.nextInt(1000) + ", 'update_postimage')");
        }
      }
      for (int i = 0; i < 8; i++) {
        int k = upsert ? 1000 * round + i : low + random.nextInt(50);
        coming.add("(" + k + ", " + key2(random.nextInt(3)) + ", " + random.nextInt(1000) + ", 'insert')");
      }
      Dataset<Row> keys = spark.sql("SELECT * FROM VALUES " + String.join(", ", going)
          + " AS g(k, " + quotedKey2 + ", _change_type)");
      Dataset<Row> rows = spark.sql("SELECT * FROM VALUES " + String.join(", ", coming)
          + " AS c(k, " + quotedKey2 + ", v, _change_type)");
      int lowBound = low;
      int highBound = low + 40;
      Tuple2<DeltaLog, Snapshot> a = DeltaLog.forTableWithSnapshot(spark, new TableIdentifier("a", Option.apply(db)));
      KeyedCommit.Committed committed = KeyedCommit.to(spark, a._1(), a._2(), "TEST")
          .removing(keys, List.of("k", key2Name), col("t.k").between(lowBound, highBound))
          .appending(rows)
          .commit();
      long mergeDeleted = merge(db + ".b", keys, rows, upsert);
      assertEquals(sorted(spark.table(db + ".b")), sorted(spark.table(db + ".a")), "round " + round);
      assertEquals(mergeDeleted, committed.rowsRemoved(), "round " + round + ": rows removed");
      if (feed) {
        assertEquals(changes(db + ".b"), changes(db + ".a"), "round " + round + ": the change data feed");
      }
      assertKernelReadsAsSpark(db + ".a", "round " + round);
    }
    spark.sql("REORG TABLE " + db + ".a APPLY (PURGE)");
    spark.sql("OPTIMIZE " + db + ".a");
    assertKernelReadsAsSpark(db + ".a", "after REORG and OPTIMIZE");
  }

  /**
   * Delta Kernel, a reader of the protocol independent of Delta's Spark connector, applies the
   * writer's deletion vectors and reads its files as Spark does: the table is a plain Delta table.
   */
  private void assertKernelReadsAsSpark(String table, String when) {
    Row detail = spark.sql("DESCRIBE DETAIL " + table).first();
    List<String> expected = KernelReader.spark(spark.table(table));
    assertEquals(expected, KernelReader.rows(detail.getString(detail.fieldIndex("location"))), when + ": Delta Kernel's read");
  }

  private long merge(String table, Dataset<Row> keys, Dataset<Row> rows, boolean upsert) {
    if (upsert) {
      Dataset<Row> source = keys.where("_change_type = 'delete'").select(col("k"), col(quotedKey2),
              lit(null).cast("int").as("v"), col("_change_type"))
          .unionByName(rows);
      Row metrics = DeltaTable.forName(spark, table).as("t").merge(source.as("s"),
              "t.k <=> s.k AND t." + quotedKey2 + " <=> s." + quotedKey2)
          .whenMatched("s._change_type = 'delete'").delete()
          .whenMatched("s._change_type = 'update_postimage'").updateExpr(Map.of("v", "s.v"))
          .whenNotMatched("s._change_type = 'insert'").insertExpr(Map.of("k", "s.k", quotedKey2,
              "s." + quotedKey2, "v", "s.v"))
          .execute().first();
      return metrics.getLong(metrics.fieldIndex("num_deleted_rows")) + metrics.getLong(metrics.fieldIndex("num_updated_rows"));
    }
    Dataset<Row> control = keys.select(col("k").as("ck"), col(quotedKey2).as("ck2"),
        lit(true).as("control"));
    Dataset<Row> data = rows.select(col("k"), col(quotedKey2), col("v"), lit(false).as("control"));
    Dataset<Row> source = data.unionByName(control, true);
    Row metrics = DeltaTable.forName(spark, table).as("t")
        .merge(source.as("s"), "s.control AND t.k BETWEEN 0 AND 100000 AND t.k <=> s.ck AND t." + quotedKey2 + " <=> s.ck2")
        .whenMatched().delete()
        .whenNotMatched("NOT s.control").insertExpr(Map.of("k", "s.k", quotedKey2, "s." + quotedKey2, "v", "s.v"))
        .execute().first();
    return metrics.getLong(metrics.fieldIndex("num_deleted_rows"));
  }

  /**
   * The files whose rows a commit marks deleted keep their statistics as Delta's DELETE keeps them
   * (bounds made wide, a column of nulls counted physically), and the commit's metrics count
   * deletion vectors added, updated and removed as DELETE's do: the writer builds those actions
   * itself instead of Delta's two joins.
   */
  @Test
  void touchedFilesKeepTheStatisticsThatDeltasDeleteKeeps() {
    String db = TestPipeline.uniqueDatabase();
    spark.sql("CREATE DATABASE " + db);
    for (String table : List.of("a", "b")) {
      spark.sql("CREATE TABLE " + db + "." + table + " (k INT, name STRING) USING delta"
          + " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
      spark.sql("INSERT INTO " + db + "." + table + " SELECT id, concat('n', id) FROM range(0, 25)");
      spark.sql("INSERT INTO " + db + "." + table + " SELECT id, NULL FROM range(25, 40)");
      spark.sql("INSERT INTO " + db + "." + table + " SELECT id, concat('n', id) FROM range(40, 43)");
    }
    // A deletion vector added, then updated; a file wholly removed.
    for (String keys : List.of("3, 30", "4, 31, 40, 41, 42")) {
      spark.sql("DELETE FROM " + db + ".b WHERE k IN (" + keys + ")");
      Dataset<Row> going = spark.sql("SELECT k FROM VALUES (" + keys.replace(", ", "), (") + ") AS g(k)");
      Tuple2<DeltaLog, Snapshot> latest = DeltaLog.forTableWithSnapshot(spark, new TableIdentifier("a", Option.apply(db)));
      KeyedCommit.to(spark, latest._1(), latest._2(), "TEST DELETE")
          .removing(going, List.of("k"), col("t.k").isNotNull()).commit();
      assertEquals(files(db, "b"), files(db, "a"), "files after deleting " + keys);
      assertEquals(deletionMetrics(db + ".b"), deletionMetrics(db + ".a"), "history metrics after deleting " + keys);
    }
  }

  /**
   * A file written without statistics gets them from its footer, as with Delta's DELETE, before it
   * gets a deletion vector (a file with a deletion vector must have its row count).
   */
  @Test
  void aFileWithoutStatisticsGetsThemBeforeItsDeletionVector() {
    String db = TestPipeline.uniqueDatabase();
    spark.sql("CREATE DATABASE " + db);
    spark.sql("CREATE TABLE " + db + ".t (k INT, name STRING) USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    spark.conf().set("spark.databricks.delta.stats.collect", "false");
    try {
      spark.sql("INSERT INTO " + db + ".t SELECT /*+ REPARTITION(1) */ id, concat('n', id) FROM range(0, 10)");
    } finally {
      spark.conf().unset("spark.databricks.delta.stats.collect");
    }
    Tuple2<DeltaLog, Snapshot> latest = DeltaLog.forTableWithSnapshot(spark, new TableIdentifier("t", Option.apply(db)));
    KeyedCommit.to(spark, latest._1(), latest._2(), "TEST DELETE")
        .removing(spark.sql("SELECT 4 AS k"), List.of("k"), col("t.k").isNotNull()).commit();
    assertEquals(List.of("[9,0]"), sorted(spark.sql("SELECT count(*), count_if(k = 4) FROM " + db + ".t")),
        "rows left, and rows of the key that went");
    assertEquals(List.of("[10,1]"), sorted(spark.sql("SELECT get_json_object(stats, '$.numRecords'), deletionVector.cardinality"
        + " FROM (SELECT add.* FROM json.`" + latest._1().logPath() + "/00000000000000000002.json` WHERE add IS NOT NULL)")));
  }

  /** Each file's statistics and deleted rows, without its name. */
  private List<String> files(String db, String table) {
    Snapshot snapshot = DeltaLog.forTableWithSnapshot(spark, new TableIdentifier(table, Option.apply(db)))._2();
    return sorted(snapshot.allFiles().toDF().selectExpr("stats", "deletionVector.cardinality"));
  }

  /** The latest commit's metrics of the rows and files it deleted. */
  private Map<String, String> deletionMetrics(String table) {
    Row latest = DeltaTable.forName(spark, table).history(1).first();
    Map<String, String> all = latest.getJavaMap(latest.fieldIndex("operationMetrics"));
    Map<String, String> metrics = new TreeMap<>();
    for (String name : List.of("numDeletionVectorsAdded", "numDeletionVectorsUpdated", "numDeletionVectorsRemoved",
        "numRemovedFiles", "numDeletedRows")) {
      metrics.put(name, all.get(name));
    }
    return metrics;
  }

  private static String row(int k, String k2, int v) {
    return "(" + k + ", " + k2 + ", " + v + ")";
  }

  private static String key2(int i) {
    return i == 0 ? "NULL" : "'" + (char) ('a' + i) + "'";
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  /** The latest commit's change feed, without its version and time. */
  private List<String> changes(String table) {
    long version = DeltaTable.forName(spark, table).history(1).first().getLong(0);
    return sorted(spark.sql("SELECT k, " + quotedKey2 + ", v, _change_type FROM table_changes('" + table + "', "
        + version + ", " + version + ")"));
  }
}
