package io.sluice.execution;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Counts over several small datasets, and how many Spark jobs they take. */
class TallyTest {
  @Test
  void countsEveryConditionOfEveryDatasetInOneSparkJob() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> numbers = spark.range(10).toDF("n").persist();
    Dataset<Row> letters = spark.sql("SELECT * FROM VALUES ('a'), ('b'), ('b') AS t(s)").persist();
    Dataset<Row> empty = numbers.where(lit(false));
    try {
      numbers.count();
      letters.count();
      long[][][] counts = new long[1][][];
      int jobs = SparkJobs.count(spark, () -> counts[0] = Tally.countAll(
          Tally.of(numbers, lit(true), col("n").lt(3), col("n").isNull()),
          Tally.of(letters, col("s").equalTo("b")),
          Tally.of(empty, lit(true))));
      assertArrayEquals(new long[] {10, 3, 0}, counts[0][0]);
      assertArrayEquals(new long[] {2}, counts[0][1]);
      assertArrayEquals(new long[] {0}, counts[0][2], "an empty dataset counts 0, not NULL");
      assertEquals(1, jobs, "one Spark job for all the counts");
    } finally {
      numbers.unpersist();
      letters.unpersist();
    }
  }
}
