package io.sluice.expectations;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A keyed batch's key values are sampled in the pass that counts its expectations: the values of
 * the rows the DROP expectations keep, NULL told apart, nothing past the limit, and no Spark job
 * beyond the counts' own.
 */
class ValueSampleTest {
  private final SparkSession spark = SharedSpark.session();

  @Test
  void samplesTheKeptRowsValuesInTheCountsOwnJob() {
    Dataset<Row> batch = spark.sql("SELECT * FROM VALUES (1L, 'a'), (2L, 'b'), (2L, 'c'), (NULL, 'd'), (9L, NULL) AS b(k, v)")
        .persist();
    ExpectationChecker checker = checker(List.of(new Expectation("has v", "v IS NOT NULL", ViolationAction.DROP,
        Origin.UNKNOWN)), col("k"));
    ExpectationChecker.Checked[] checked = new ExpectationChecker.Checked[1];
    // As a flow counts its batches (BatchSettings.forCounts): adaptive execution would make each
    // shuffle stage of the aggregation a job of its own.
    spark.conf().set("spark.sql.adaptive.enabled", "false");
    List<String> jobs;
    try {
      jobs = SparkJobs.descriptions(spark, () -> checked[0] = checker.check(batch));
    } finally {
      spark.conf().unset("spark.sql.adaptive.enabled");
    }
    assertEquals(1, jobs.size(), "Spark jobs: " + jobs);
    ValueSample sample = checked[0].sample().orElseThrow();
    assertEquals(List.of(1L, 2L), new ArrayList<>(new TreeSet<>(sample.values().orElseThrow().stream().map(v -> (Long) v).toList())),
        "the kept rows' values: 9 is only in a dropped row");
    assertTrue(sample.hasNull());
    assertEquals(1, checked[0].quality().droppedRows());
  }

  @Test
  void saysOnlyMoreBeyondItsLimit() {
    Dataset<Row> batch = spark.range(ValueSample.LIMIT + 1).toDF("k");
    ValueSample sample = checker(List.of(), col("k")).check(batch).sample().orElseThrow();
    assertTrue(sample.values().isEmpty());
    assertFalse(sample.hasNull());
    assertEquals(ValueSample.LIMIT, checker(List.of(), col("k")).check(spark.range(ValueSample.LIMIT).toDF("k"))
        .sample().orElseThrow().values().orElseThrow().size());
  }

  @Test
  void aColumnThatLiteralsCannotBoundIsNotSampled() {
    Dataset<Row> batch = spark.sql("SELECT named_struct('a', 1) AS k");
    assertEquals(Optional.empty(), checker(List.of(), col("k")).check(batch).sample());
  }

  private static ExpectationChecker checker(List<Expectation> expectations, Column sampled) {
    return new ExpectationChecker("t", "f", expectations, List.of(),
        schema -> List.of(schema.fieldNames()).stream().map(org.apache.spark.sql.functions::col).toList(), Optional.of(sampled));
  }
}
