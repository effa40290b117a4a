package io.sluice.execution;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** A batch's check for an offending row costs one Spark job, and the session's settings come back after it. */
class BatchSettingsTest {
  @Test
  void aCheckThatFindsNothingScansEveryPartitionInOneJob() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> batch = spark.range(0, 40, 1, 4).toDF("n").persist();
    try {
      batch.count();
      Runnable check = () -> assertTrue(batch.where(col("n").lt(0)).takeAsList(1).isEmpty());
      assertTrue(SparkJobs.count(spark, check) > 1, "Spark's default: the first partition, then the others");
      assertEquals(1, SparkJobs.count(spark, () -> BatchSettings.forWrite(spark, () -> {
        check.run();
        return null;
      })));
      assertTrue(SparkJobs.count(spark, check) > 1, "the session's own setting is back");
    } finally {
      batch.unpersist();
    }
  }
}
