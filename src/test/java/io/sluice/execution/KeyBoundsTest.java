package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.sluice.common.Identifiers;
import io.sluice.testsupport.SharedSpark;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Literal bounds taken from a batch's keys select the same rows as the keys, whatever the column's name. */
class KeyBoundsTest {
  private static final String KEY = "order`id.v";

  private static Dataset<Row> keys(SparkSession spark, String values) {
    return spark.sql("SELECT * FROM VALUES " + values + " AS t(" + Identifiers.quote(KEY) + ")");
  }

  private static List<Long> selected(Dataset<Row> table, KeyBounds bounds) {
    return table.where(bounds.on(ColumnNames.col(KEY))).orderBy(ColumnNames.col(KEY)).as(
        org.apache.spark.sql.Encoders.LONG()).collectAsList();
  }

  @Test
  void anInListOfTheBatchsValuesWithNullWhenTheBatchHasOne() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> table = spark.range(0, 20).toDF(KEY);
    assertEquals(List.of(3L, 7L), selected(table, KeyBounds.of(keys(spark, "(7L), (3L), (7L)"), KEY)));
    Dataset<Row> withNull = spark.sql("SELECT CAST(NULL AS BIGINT) AS " + Identifiers.quote(KEY) + " UNION ALL SELECT 5L");
    KeyBounds bounds = KeyBounds.of(withNull, KEY);
    assertEquals(2, withNull.where(bounds.on(ColumnNames.col(KEY))).count(), "NULL keys are kept too");
  }

  @Test
  void aRangePastTheInListLimit() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> batch = spark.range(100, 100 + KeyBounds.IN_LIST_LIMIT + 1).toDF(KEY);
    KeyBounds bounds = KeyBounds.of(batch, KEY);
    Dataset<Row> table = spark.range(0, 2000).toDF(KEY);
    assertEquals(KeyBounds.IN_LIST_LIMIT + 1, table.where(bounds.on(ColumnNames.col(KEY))).count());
    assertEquals(100L, selected(table, bounds).get(0));
  }

  /** {@link KeyBounds#within} selects what a join with the keys selects; without the join when the IN list is the keys. */
  @Test
  void withinSelectsTheKeysRows() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> table = spark.sql("SELECT id AS " + Identifiers.quote(KEY) + ", id % 3 AS part FROM range(0, 30)"
        + " UNION ALL SELECT NULL, 0");
    Dataset<Row> few = keys(spark, "(7L), (3L)");
    Dataset<Row> exact = KeyBounds.of(few, KEY).within(table, List.of(KEY), few);
    assertEquals(List.of(3L, 7L), exact.select(ColumnNames.col(KEY)).orderBy(ColumnNames.col(KEY))
        .as(org.apache.spark.sql.Encoders.LONG()).collectAsList());
    assertFalse(exact.queryExecution().optimizedPlan().toString().contains("Join"), "the IN list alone selects them");

    Dataset<Row> withNull = spark.sql("SELECT CAST(NULL AS BIGINT) AS " + Identifiers.quote(KEY) + " UNION ALL SELECT 5L");
    assertEquals(2, KeyBounds.of(withNull, KEY).within(table, List.of(KEY), withNull).count(), "NULL matches NULL");

    Dataset<Row> pairs = spark.sql("SELECT * FROM VALUES (4L, 1L), (5L, 0L) AS k(" + Identifiers.quote(KEY) + ", part)");
    Dataset<Row> composite = KeyBounds.of(pairs, KEY).within(table, List.of(KEY, "part"), pairs);
    assertEquals(List.of(4L), composite.select(ColumnNames.col(KEY)).as(org.apache.spark.sql.Encoders.LONG()).collectAsList(),
        "both key columns match: (5, 0) is not a row of the table");
  }

  /** Floating-point keys: NaN matches NaN and -0.0 matches 0.0 in the IN list as in a join. */
  @Test
  void withinTreatsNanAndNegativeZeroAsAJoinDoes() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> table = spark.sql("SELECT * FROM VALUES (CAST('NaN' AS DOUBLE)), (-0.0D), (0.0D), (1.5D), (2.5D) AS t(k)");
    Dataset<Row> keys = spark.sql("SELECT * FROM VALUES (CAST('NaN' AS DOUBLE)), (0.0D), (2.5D) AS k(k)");
    Dataset<Row> exact = KeyBounds.of(keys, "k").within(table, List.of("k"), keys);
    Dataset<Row> joined = table.as("r").join(keys.as("k"), ColumnNames.col("r", "k").eqNullSafe(ColumnNames.col("k", "k")),
        "left_semi");
    assertEquals(4, joined.count(), "NaN, -0.0, 0.0 and 2.5");
    assertEquals(joined.orderBy("k").collectAsList().toString(), exact.orderBy("k").collectAsList().toString());
  }
}
