package io.sluice.delta;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import io.sluice.testsupport.TestPipeline;
import java.sql.Date;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.AddFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Files chosen on the driver from a version's checksum: every file that holds a selected row, none
 * that Delta's data skipping leaves out, and no Spark job.
 */
class FileSkippingTest {
  private static final SparkSession spark = SharedSpark.session();
  /** Four files of disjoint key ranges (one with a NULL key and NULL names), so their bounds tell them apart. */
  private static String table;

  @BeforeAll
  static void fourFiles() {
    String db = TestPipeline.uniqueDatabase();
    spark.sql("CREATE DATABASE " + db);
    spark.sql("CREATE TABLE " + db + ".t (k BIGINT, name STRING, day DATE) USING delta");
    for (int part = 0; part < 3; part++) {
      spark.sql("INSERT INTO " + db + ".t SELECT /*+ REPARTITION(1) */ id, concat('n', id), date_add(DATE'2024-01-01', "
          + part + ") FROM range(" + part * 100 + ", " + (part * 100 + 100) + ")");
    }
    spark.sql("INSERT INTO " + db + ".t VALUES (NULL, NULL, DATE'2024-02-01')");
    table = db + ".t";
  }

  @Test
  void choosesFromTheChecksumNoMoreThanDeltasDataSkippingAndNoLess() {
    List<Column> predicates = List.of(
        col("t.k").isin(3L, 250L),
        col("t.k").isin(3L, 250L).or(col("t.k").isNull()),
        col("t.k").between(90L, 110L),
        col("t.k").gt(290L).or(col("t.k").lt(5L)),
        col("t.k").equalTo(lit(1000L)),
        col("t.name").isin("n105", "n7"),
        col("t.day").equalTo(lit(Date.valueOf("2024-01-03"))),
        col("t.name").isNull(),
        col("t.k").isin(3L).and(col("t.name").isin("n250")),
        col("t.k").plus(1).equalTo(4L),
        lit(true));
    for (Column predicate : predicates) {
      Tuple2<DeltaLog, Snapshot> latest = latest();
      Dataset<Row> whole = latest._1().createDataFrame(latest._2(), Scala.seq(List.of()), false, Option.empty()).as("t");
      OptimisticTransaction mine = latest._1().startTransaction(Option.empty(), Option.apply(latest._2()));
      List<String> jobs = SparkJobs.descriptions(spark, () -> FileSkipping.forCommit(spark, mine, FileSkipping.condition(whole, predicate)));
      assertEquals(List.of(), jobs, predicate + ": Spark jobs");
      FileSkipping.Candidates chosen = FileSkipping.forCommit(spark, mine, FileSkipping.condition(whole, predicate));
      assertTrue(chosen.withStats(), "the checksum lists the files");
      OptimisticTransaction delta = latest._1().startTransaction(Option.empty(), Option.apply(latest._2()));
      Set<String> deltas = paths(delta.filterFiles(Scala.seq(List.of(FileSkipping.condition(whole, predicate))), true));
      Set<String> ours = paths(chosen.files());
      assertTrue(deltas.containsAll(ours), predicate + ": a file chosen that Delta leaves out: " + ours + " " + deltas);
      assertTrue(ours.containsAll(holding(predicate)), predicate + ": a file holding a row left out");
      assertFalse(mine.readPredicates().isEmpty(), "the read is recorded for the commit's conflict checks");
    }
  }

  @Test
  void anInListChoosesTheFilesOfItsValuesOnly() {
    Tuple2<DeltaLog, Snapshot> latest = latest();
    Dataset<Row> whole = latest._1().createDataFrame(latest._2(), Scala.seq(List.of()), false, Option.empty()).as("t");
    Column in = col("t.k").isin(3L, 250L);
    FileSkipping.Candidates chosen = FileSkipping.forCommit(spark,
        latest._1().startTransaction(Option.empty(), Option.apply(latest._2())), FileSkipping.condition(whole, in));
    // Delta's own skipping takes an IN list's range, 3 to 250, and reads the file of 100-199 too.
    assertEquals(holding(in), paths(chosen.files()));
    assertEquals(2, chosen.files().size());
  }

  @Test
  void readsTheSelectedRowsFromTheChosenFiles() {
    Tuple2<DeltaLog, Snapshot> latest = latest();
    Dataset<Row> rows = FileSkipping.rows(spark, latest._1(), latest._2(), col("k").isin(3L, 250L).or(col("k").isNull()))
        .orElseThrow();
    assertEquals(List.of("[3,n3]", "[250,n250]", "[null,null]"), rows.select("k", "name").orderBy(col("k").asc_nulls_last())
        .collectAsList().stream().map(Row::toString).toList());
  }

  /** A file whose rows were partly deleted keeps its statistics; the rows read skip the deleted ones. */
  @Test
  void readsPastTheRowsThatDeletionVectorsDelete() {
    String db = TestPipeline.uniqueDatabase();
    spark.sql("CREATE DATABASE " + db);
    String dvTable = db + ".dv";
    spark.sql("CREATE TABLE " + dvTable + " (k BIGINT, name STRING) USING delta "
        + "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    spark.sql("INSERT INTO " + dvTable + " SELECT /*+ REPARTITION(1) */ id, concat('n', id) FROM range(0, 100)");
    spark.sql("INSERT INTO " + dvTable + " SELECT /*+ REPARTITION(1) */ id, concat('n', id) FROM range(100, 200)");
    spark.sql("DELETE FROM " + dvTable + " WHERE k IN (3, 5, 150)");
    Tuple2<DeltaLog, Snapshot> latest = latest(dvTable);
    assertTrue(CollectionConverters.asJava(latest._2().checksumOpt().get().allFiles().get()).stream()
        .anyMatch(f -> f.deletionVector() != null), "the DELETE wrote deletion vectors");
    List<String> read = new ArrayList<>();
    List<String> jobs = SparkJobs.descriptions(spark, () -> FileSkipping.rows(spark, latest._1(), latest._2(),
        col("k").isin(2L, 3L, 5L, 6L, 150L)).orElseThrow().select("k").collectAsList().forEach(r -> read.add(r.toString())));
    assertEquals(List.of("[2]", "[6]"), read.stream().sorted().toList());
    assertEquals(1, jobs.size(), () -> "the read's own job, none to choose files: " + jobs);
  }

  private static Tuple2<DeltaLog, Snapshot> latest() {
    return latest(table);
  }

  private static Tuple2<DeltaLog, Snapshot> latest(String name) {
    String[] parts = name.split("\\.");
    return DeltaLog.forTableWithSnapshot(spark, new TableIdentifier(parts[1], Option.apply(parts[0])));
  }

  /** The files that hold a row the predicate selects. */
  private static Set<String> holding(Column predicate) {
    return spark.table(table).as("t").where(predicate).select(col("_metadata.file_name")).collectAsList().stream()
        .map(r -> r.getString(0)).collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> paths(scala.collection.immutable.Seq<AddFile> files) {
    return CollectionConverters.asJava(files).stream().map(f -> f.path().substring(f.path().lastIndexOf('/') + 1))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
