package io.sluice.execution;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testing.SharedSpark;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Counts over several small datasets, and how many Spark jobs they take. */
class TallyTest {
  @Test
  void countsEveryConditionOfEveryDatasetInOneSparkJob() throws TimeoutException {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> numbers = spark.range(10).toDF("n").persist();
    Dataset<Row> letters = spark.sql("SELECT * FROM VALUES ('a'), ('b'), ('b') AS t(s)").persist();
    Dataset<Row> empty = numbers.where(lit(false));
    AtomicInteger jobs = new AtomicInteger();
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        jobs.incrementAndGet();
      }
    };
    try {
      numbers.count();
      letters.count();
      spark.sparkContext().listenerBus().waitUntilEmpty();
      spark.sparkContext().addSparkListener(listener);
      long[][] counts = Tally.countAll(
          Tally.of(numbers, lit(true), col("n").lt(3), col("n").isNull()),
          Tally.of(letters, col("s").equalTo("b")),
          Tally.of(empty, lit(true)));
      spark.sparkContext().listenerBus().waitUntilEmpty();
      assertArrayEquals(new long[] {10, 3, 0}, counts[0]);
      assertArrayEquals(new long[] {2}, counts[1]);
      assertArrayEquals(new long[] {0}, counts[2], "an empty dataset counts 0, not NULL");
      assertEquals(1, jobs.get(), "one Spark job for all the counts");
    } finally {
      spark.sparkContext().removeSparkListener(listener);
      numbers.unpersist();
      letters.unpersist();
    }
  }
}
