package io.sluice.execution;

import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A large keyed append laid out in key ranges, so that a later batch's key bounds skip files. */
class KeyClusteringTest {
  private final SparkSession spark = SharedSpark.session();

  @TempDir Path dir;

  @Test
  void eachFileHoldsOneRangeOfKeysAndABatchsBoundsReadOneFile() {
    // Keys arrive scattered (as after a shuffle by their hash), two rows per key.
    Dataset<Row> rows = spark.range(1000).selectExpr("CAST(pmod(hash(id), 500) AS BIGINT) AS k", "id AS v");
    String path = dir.resolve("t").toString();
    KeyClustering.byKeys(rows, List.of("k"), 1000, 100).write().format("delta").save(path);

    List<Row> files = spark.read().format("delta").load(path)
        .groupBy("_metadata.file_path").agg(min("k"), max("k"))
        .orderBy("min(k)").collectAsList();
    assertEquals(10, files.size(), "one file per 100 rows");
    for (int i = 1; i < files.size(); i++) {
      assertTrue(files.get(i - 1).getLong(2) < files.get(i).getLong(1), "disjoint key ranges: " + files);
    }
    long read = spark.read().format("delta").load(path).where("k IN (7, 8)").select("_metadata.file_path").distinct().count();
    assertEquals(1, read, "Delta skips the files whose range holds neither key");
  }

  @Test
  void aSmallAppendIsLeftAsItIs() {
    Dataset<Row> rows = spark.range(10).toDF("k");
    assertEquals(rows.queryExecution().logical(), KeyClustering.byKeys(rows, List.of("k"), 10, 100).queryExecution().logical());
  }
}
