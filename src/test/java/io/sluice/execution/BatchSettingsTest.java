package io.sluice.execution;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.SharedSpark;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** A batch's check for an offending row costs one Spark job, and the session's settings come back after it. */
class BatchSettingsTest {
  @Test
  void aCheckThatFindsNothingScansEveryPartitionInOneJob() throws TimeoutException {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> batch = spark.range(0, 40, 1, 4).toDF("n").persist();
    try {
      batch.count();
      Supplier<List<Row>> check = () -> batch.where(col("n").lt(0)).takeAsList(1);
      assertTrue(jobs(spark, check) > 1, "Spark's default: the first partition, then the others");
      assertEquals(1, jobs(spark, () -> BatchSettings.forWrite(spark, 40, check)));
      assertTrue(jobs(spark, check) > 1, "the session's own setting is back");
    } finally {
      batch.unpersist();
    }
  }

  private static int jobs(SparkSession spark, Supplier<List<Row>> work) throws TimeoutException {
    AtomicInteger jobs = new AtomicInteger();
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        jobs.incrementAndGet();
      }
    };
    spark.sparkContext().listenerBus().waitUntilEmpty();
    spark.sparkContext().addSparkListener(listener);
    try {
      assertTrue(work.get().isEmpty());
      spark.sparkContext().listenerBus().waitUntilEmpty();
      return jobs.get();
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
  }
}
