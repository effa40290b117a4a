package io.sluice.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query over a small Delta table is planned from the file list in its version's checksum: no
 * Spark job of Delta's before the scan, the same rows as Delta's own planning, deletion vectors
 * and time travel honoured, files the filter rules out not read.
 */
class ChecksumScansTest {
  private final SparkSession spark = SharedSpark.session();
  @TempDir Path dir;

  /** A table of three files (ids 1-3, 4-6, 7-9) with deletion vectors, and a fourth version deleting id 5. */
  private String table() {
    String table = "delta.`" + dir.resolve("t") + "`";
    spark.sql("CREATE TABLE " + table + " (id BIGINT, name STRING) USING delta"
        + " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    for (int first = 1; first <= 7; first += 3) {
      spark.sql("INSERT INTO " + table + " SELECT /*+ REPARTITION(1) */ id, concat('n', id) FROM range(" + first + ", " + (first + 3) + ") AS r(id)")
          .collect();
    }
    spark.sql("DELETE FROM " + table + " WHERE id = 5");
    return table;
  }

  private static List<String> rows(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).toList();
  }

  @Test
  void aSmallTableIsScannedWithoutDeltasJobsAndGivesTheSameRows() {
    String table = table();
    List<String> expected = List.of("[1,n1]", "[2,n2]", "[3,n3]", "[4,n4]", "[6,n6]", "[7,n7]", "[8,n8]", "[9,n9]");
    rows(spark.sql("SELECT 1"));

    List<String> result = new ArrayList<>();
    List<String> jobs = SparkJobs.descriptions(spark, () -> result.addAll(rows(spark.sql("SELECT * FROM " + table + " ORDER BY id"))));
    assertEquals(expected, result, "the deleted row stays deleted");
    assertTrue(jobs.stream().noneMatch(job -> job.contains("Delta")), () -> "no job of Delta's to plan the scan: " + jobs);
    assertEquals(expected, rows(spark.read().format("delta").load(dir.resolve("t").toString()).orderBy("id")));
  }

  @Test
  void aFilterReadsOnlyTheFilesItsStatisticsAllowAndTimeTravelReadsTheOldVersion() {
    String table = table();
    Dataset<Row> eight = spark.sql("SELECT * FROM " + table + " WHERE id = 8");
    assertEquals(List.of("[8,n8]"), rows(eight));
    assertEquals(1, eight.inputFiles().length, "the file of ids 7-9 only");
    assertEquals(3, spark.sql("SELECT * FROM " + table + " WHERE id > 0").inputFiles().length);

    assertEquals(List.of("[4,n4]", "[5,n5]", "[6,n6]"),
        rows(spark.sql("SELECT * FROM " + table + " VERSION AS OF 3 WHERE id BETWEEN 4 AND 6 ORDER BY id")),
        "version 3 is before the delete");
  }

  @Test
  void aTableWhoseChecksumListsNoFilesIsPlannedByDelta() {
    SparkSession large = ((org.apache.spark.sql.classic.SparkSession) spark).cloneSession();
    large.conf().set("spark.databricks.delta.allFilesInCrc.thresholdNumFiles", "1");
    String table = "delta.`" + dir.resolve("large") + "`";
    large.sql("CREATE TABLE " + table + " USING delta AS SELECT id FROM range(3)");
    large.sql("INSERT INTO " + table + " VALUES (10)");

    List<String> result = new ArrayList<>();
    List<String> jobs = SparkJobs.descriptions(spark, () -> result.addAll(rows(spark.sql("SELECT * FROM " + table + " ORDER BY id"))));
    assertEquals(List.of("[0]", "[1]", "[2]", "[10]"), result);
    assertTrue(jobs.stream().anyMatch(job -> job.contains("Delta")), () -> "Delta lists the files: " + jobs);
  }
}
