package io.sluice.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user outside UTC pays no more per commit than one in UTC: Delta's cross-check of the file
 * list after each commit, forced outside UTC by default, is off in Sluice's sessions.
 */
class OutsideUtcCommitTest {
  private static final String FORCE_CHECK = "spark.databricks.delta.allFilesInCrc.verificationMode.forceOnNonUTC.enabled";

  @TempDir Path dir;

  @Test
  void aCommitOutsideUtcRunsNoCheckOfDeltasOwn() {
    SparkSession spark = ((org.apache.spark.sql.classic.SparkSession) SharedSpark.session()).cloneSession();
    spark.conf().set("spark.sql.session.timeZone", "Asia/Tokyo");
    String table = "delta.`" + dir.resolve("t") + "`";
    spark.sql("CREATE TABLE " + table + " (id INT) USING delta");
    spark.sql("INSERT INTO " + table + " VALUES (1)");

    assertEquals("false", spark.conf().get(FORCE_CHECK), "set by SparkSessions.sessionSettings");
    List<String> sluice = SparkJobs.descriptions(spark, () -> spark.sql("INSERT INTO " + table + " VALUES (2)"));
    spark.conf().set(FORCE_CHECK, "true");
    List<String> delta = SparkJobs.descriptions(spark, () -> spark.sql("INSERT INTO " + table + " VALUES (3)"));
    assertTrue(delta.size() > sluice.size(), "Delta's default checks each commit outside UTC: " + delta + " against " + sluice);
    assertEquals(List.of("[1]", "[2]", "[3]"),
        spark.sql("SELECT id FROM " + table + " ORDER BY id").collectAsList().stream().map(Object::toString).toList());
  }
}
