package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which snapshot queries can be recognised as unchanged, on tiny Delta tables. */
class SourceFingerprintTest {
  @TempDir Path dir;

  private Optional<String> of(String sql) {
    return SourceFingerprint.of(SharedSpark.session().sql(sql), Map.of());
  }

  @Test
  void equalForTheSameQueryAndVersionsDifferentOtherwise() {
    SparkSession spark = SharedSpark.session();
    String t = "delta.`" + dir.resolve("t") + "`";
    spark.sql("CREATE TABLE " + t + " USING delta AS SELECT id, id * 10 AS v FROM range(3)");
    String query = "SELECT id, v FROM " + t + " WHERE v > 0";
    Optional<String> first = of(query);
    assertTrue(first.isPresent(), "a query over a Delta table has a fingerprint");
    assertEquals(first, of(query), "the same query at the same version: the same fingerprint");
    assertNotEquals(first, of("SELECT id, v FROM " + t + " WHERE v > 10"), "another query");
    assertNotEquals(first, SourceFingerprint.of(spark.sql(query), Map.of("spark.sql.ansi.enabled", "false")),
        "other settings");
    assertTrue(of("SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM " + t)
        .isPresent(), "a window frame's CURRENT ROW reads no clock");
    spark.sql("INSERT INTO " + t + " VALUES (9, 90)");
    assertNotEquals(first, of(query), "a commit to the table");
  }

  @Test
  void noneForQueriesThatCanGiveOtherRowsWithoutACommit() {
    SparkSession spark = SharedSpark.session();
    String t = "delta.`" + dir.resolve("t") + "`";
    spark.sql("CREATE TABLE " + t + " USING delta AS SELECT id FROM range(3)");
    spark.range(2).write().json(dir.resolve("files").toString());
    assertEquals(Optional.empty(), of("SELECT id, current_date() AS d FROM " + t), "reads the clock");
    assertEquals(Optional.empty(), of("SELECT id, rand() AS r FROM " + t), "not deterministic");
    assertEquals(Optional.empty(), of("SELECT id FROM " + t + " WHERE id IN (SELECT id FROM " + t + ")"), "a subquery");
    assertEquals(Optional.empty(), of("SELECT * FROM json.`" + dir.resolve("files") + "`"), "files, not a Delta table");
  }
}
