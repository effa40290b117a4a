package io.sluice.testing;

import static io.sluice.testing.PipelineTest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testsupport.JarBuilder;
import io.sluice.testsupport.PipelineFolder;
import io.sluice.testsupport.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java kit on the shared session: rows given, updates run, and each kind of check holding,
 * failing with what differs and where, or refused before anything runs.
 */
class PipelineTestTest {
  static final Path AUTO_CDC = Path.of("examples/auto-cdc").toAbsolutePath();
  private static final String USERS = "json files data/users";

  private final SparkSession spark = SharedSpark.session();
  @TempDir Path dir;

  @Test
  void rowsGivenUpdateAfterUpdateAreCheckedAndAPassedTestLeavesNothing() {
    Path folder;
    try (PipelineTest test = PipelineTest.of(spark, AUTO_CDC)) {
      folder = test.folder();
      test.given(USERS, row("userId", 1, "name", "Ann", "city", "Oslo", "operation", "INSERT", "sequenceNum", 1),
              row("userId", 2, "name", "Bo", "city", "Rome", "operation", "INSERT", "sequenceNum", 1))
          .update()
          .expect("users_scd1", row("userId", 1, "name", "Ann"), row("userId", 2, "name", "Bo"))
          .expectFailedRows("parsed", 0)
          .given(USERS, row("userId", 2, "operation", "DELETE", "sequenceNum", 2))
          .update()
          .expect("users_scd1", row("userId", 1, "city", "Oslo"))
          .expectCount("users_scd2", 2)
          .expectNoRows("SELECT * FROM users_scd2 WHERE userId = 2 AND __END_AT IS NULL")
          .update()
          .expectUnchanged("users_scd1")
          .expectUnchanged("users_cdc");
    }
    assertFalse(Files.exists(folder), "a passed test's copy is removed");
    assertFalse(Files.exists(AUTO_CDC.resolve(".sluice")), "the pipeline's own storage is not touched");
  }

  @Test
  void aCheckThatDoesNotHoldSaysWhatDiffersAndWhere() {
    PipelineTest test = PipelineTest.of(spark, AUTO_CDC);
    test.given(USERS, row("userId", 7, "name", "Cy", "city", "Lima", "operation", "INSERT", "sequenceNum", 1)).update();
    int line = Thread.currentThread().getStackTrace()[1].getLineNumber() + 1;
    AssertionError wrong = assertThrows(AssertionError.class, () -> test.expect("users_scd1", row("userId", 7, "city", "Quito")));
    test.close();
    String message = wrong.getMessage();
    assertTrue(message.startsWith("update 1, users_scd1 (PipelineTestTest.java:" + line + "):\ncompared on userId, city\n"), message);
    assertTrue(message.contains("missing (expected, not found):\n  userId | city\n  ------ | -----\n  7      | Quito\n"), message);
    assertTrue(message.contains("unexpected (found, not expected):\n  userId | city\n  ------ | ----\n  7      | Lima\n"), message);
    assertTrue(Files.isDirectory(test.folder().resolve(".sluice/warehouse")), "a failed test's tables are kept to be looked at");

    AssertionError count = assertThrows(AssertionError.class, () -> {
      try (PipelineTest again = PipelineTest.of(spark, AUTO_CDC)) {
        again.update().expectCount("users_scd2", 3);
      }
    });
    assertTrue(count.getMessage().startsWith("update 1, users_scd2 (PipelineTestTest.java:"), count.getMessage());
    assertTrue(count.getMessage().contains("): expected 3 rows, found 0\n"), count.getMessage());
  }

  @Test
  void aFlowThatFailsFailsTheTestUnlessACheckExpectsIt() {
    // A userId that is no number goes to _rescued_data, and the expectation 'parsed' fails the update.
    try (PipelineTest test = PipelineTest.of(spark, AUTO_CDC)) {
      test.given(USERS, row("userId", "one", "name", "Ann", "operation", "INSERT", "sequenceNum", 1))
          .update()
          .expectFailed("users_cdc", "EXPECTATION_VIOLATION");
    }

    PipelineTest unexpected = PipelineTest.of(spark, AUTO_CDC);
    unexpected.given(USERS, row("userId", "one", "operation", "INSERT", "sequenceNum", 1)).update();
    AssertionError error = assertThrows(AssertionError.class, () -> unexpected.expectCount("users_scd1", 0));
    assertTrue(error.getMessage().startsWith("update 1: flow 'users_cdc' failed: "), error.getMessage());
    assertTrue(error.getMessage().contains("parsed"), error.getMessage());

    PipelineTest wrongClass = PipelineTest.of(spark, AUTO_CDC);
    wrongClass.given(USERS, row("userId", "one", "operation", "INSERT", "sequenceNum", 1)).update();
    AssertionError other = assertThrows(AssertionError.class, () -> wrongClass.expectFailed("users_cdc", "DIVIDE_BY_ZERO"));
    assertTrue(other.getMessage().contains("expected FAILED with DIVIDE_BY_ZERO; flow 'users_cdc' failed with EXPECTATION_VIOLATION: "),
        other.getMessage());
    wrongClass.close();
  }

  @Test
  void whatThePipelineDoesNotHaveIsRefusedWhereTheTestSaysIt() {
    try (PipelineTest test = PipelineTest.of(spark, AUTO_CDC)) {
      SluiceException source = assertThrows(SluiceException.class, () -> test.given("json files data/customers", row("id", 1)));
      assertEquals("TEST_SOURCE_UNKNOWN", source.errorClass());
      assertTrue(source.getMessage().contains("the pipeline reads no source 'json files data/customers'; it reads json files data/users"),
          source.getMessage());
      SluiceException field = assertThrows(SluiceException.class, () -> test.given(USERS, row("userId", 1, "email", "a@b.c")));
      assertEquals("TEST_FIELD_UNKNOWN", field.errorClass());
      assertTrue(field.userMessage().startsWith("PipelineTestTest.java:"), field.userMessage());
      assertTrue(field.getMessage().contains("row 1 of 'json files data/users' has a field 'email' that its files do not have;"
          + " they have userId, name, city, operation, sequenceNum"), field.getMessage());
      test.update();
      SluiceException dataset = assertThrows(SluiceException.class, () -> test.expectCount("users", 0));
      assertTrue(dataset.getMessage().contains("the pipeline defines no dataset 'users'; it defines users_cdc, users_changes,"
          + " users_scd1, users_scd2"), dataset.getMessage());
      SluiceException expectation = assertThrows(SluiceException.class, () -> test.expectFailedRows("valid_id", 0));
      assertTrue(expectation.getMessage().contains("the pipeline defines no expectation 'valid_id'; it defines users_cdc.parsed"),
          expectation.getMessage());
    }
  }

  @Test
  void rowsGoToFilesOfTheSourcesOwnFormat() throws Exception {
    PipelineFolder.copyOf(Path.of("examples/snapshot-cdc").toAbsolutePath(), dir);
    Files.writeString(dir.resolve("transformations/measures.sql"), """
        CREATE OR REFRESH STREAMING TABLE measures
        AS SELECT * FROM STREAM read_files('data/measures', format => 'parquet', schema => 'sensor STRING, celsius DOUBLE');
        """);
    Files.createDirectories(dir.resolve("data/measures"));
    try (PipelineTest test = PipelineTest.of(spark, dir)) {
      // A snapshot source reads one file a version: each update gives the next file beside it.
      test.given("csv files snapshots/2026-01-01.csv", row("id", 1, "name", "Ann", "city", "Oslo, Norway"), row("id", 2, "name", "Bo"))
          .given("parquet files data/measures", row("sensor", "s1", "celsius", 21.5))
          .update()
          .expect("customers", row("id", 1, "city", "Oslo, Norway"), row("id", 2, "city", null))
          .expect("measures", row("sensor", "s1", "celsius", 21.5))
          .given("csv files snapshots/2026-01-02.csv", row("id", 2, "name", "Bo", "city", "Rome"))
          .update()
          .expect("customers", row("id", 2, "name", "Bo", "city", "Rome"))
          .expect("customers_history", row("id", 1, "__END_AT", "2026-01-02"), row("id", 2, "__END_AT", "2026-01-02"),
              row("id", 2, "__END_AT", null));
    }
  }

  @Test
  void rowsGoToATableOutsideThePipelineMadeForTests() throws Exception {
    Files.writeString(dir.resolve("spark-pipeline.yml"), "name: copies\nstorage: .sluice\nlibraries:\n  - glob:\n      include: '*.sql'\n");
    Files.writeString(dir.resolve("copies.sql"), "CREATE OR REFRESH STREAMING TABLE copies AS SELECT id, upper(v) AS v FROM STREAM(kit_src.events);\n");
    PipelineTest.createSourceTable(spark, "kit_src.events", "id BIGINT, v STRING");
    try (PipelineTest test = PipelineTest.of(spark, dir)) {
      test.given("table kit_src.events", row("id", 1, "v", "a"), row("id", 2, "v", "b")).update()
          .expect("copies", row("id", 1, "v", "A"), row("id", 2, "v", "B"))
          .given("kit_src.events", row("id", 3, "v", "c")).update()
          .expectCount("copies", 3);
    }
    try (PipelineTest next = PipelineTest.of(spark, dir)) {
      next.update().expectEmpty("copies"); // each test starts the table empty
    }

    // A table that was not made for tests is never written by one.
    spark.sql("CREATE TABLE kit_src.real_events (id BIGINT, v STRING) USING delta");
    SluiceException made = assertThrows(SluiceException.class, () -> PipelineTest.createSourceTable(spark, "kit_src.real_events", "id BIGINT"));
    assertTrue(made.getMessage().contains("the table kit_src.real_events exists in the session's catalog and was not made for tests"),
        made.getMessage());
    Files.writeString(dir.resolve("copies.sql"), "CREATE OR REFRESH STREAMING TABLE copies AS SELECT * FROM STREAM(kit_src.real_events);\n");
    Path other = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-real"));
    PipelineFolder.copyOf(dir, other);
    try (PipelineTest real = PipelineTest.of(spark, other)) {
      real.given("table kit_src.real_events", row("id", 1, "v", "a"));
      SluiceException refused = assertThrows(SluiceException.class, real::update);
      assertTrue(refused.getMessage().contains("rows cannot be given to the table kit_src.real_events: it was not made for tests"),
          refused.getMessage());
      real.keep();
    }
    assertEquals(0L, spark.table("kit_src.real_events").count());
  }

  @Test
  void aJavaFlowsSourceIsGivenRowsAsASqlFlowsIs() throws Exception {
    Files.writeString(dir.resolve("spark-pipeline.yml"), "name: java_copies\nstorage: .sluice\nlibraries:\n"
        + "  - glob: {include: lib/*.jar}\n  - class: example.Copies\n");
    JarBuilder.compileToJar(dir.resolve("lib/definitions.jar"), "example.Copies", """
        package example;
        public class Copies implements io.sluice.api.PipelineDefinition {
          public void define(io.sluice.api.Pipeline p) {
            p.streamingTable("java_copies").query(ctx -> ctx.spark().readStream().table("kit_java.events").where("id > 1"));
          }
        }
        """);
    PipelineTest.createSourceTable(spark, "kit_java.events", "id BIGINT, v STRING");
    try (PipelineTest test = PipelineTest.of(spark, dir)) {
      test.given("table kit_java.events", row("id", 1, "v", "a"), row("id", 2, "v", "b")).update()
          .expect("java_copies", row("id", 2, "v", "b"));
    }
  }

  @Test
  void kafkaRecordsNeedNoBrokerAndEveryCheckFailsWhenItDoesNotHold() {
    String order = "{\"order_id\":\"o-1\",\"version\":1,\"status\":\"placed\",\"amount\":1200.00,\"customer\":\"ada\","
        + "\"event_time\":\"2026-12-01T09:00:00\"}";
    PipelineTest test = PipelineTest.of(spark, Path.of("examples/kafka").toAbsolutePath());
    test.given("kafka topic orders", row("key", "o-1", "value", order), row("key", "o-1", "value", order)).update()
        .expect("orders_raw", row("order_key", "o-1", "offset", 0), row("order_key", "o-1", "offset", 1))
        .expect("orders", row("order_id", "o-1", "status", "placed"))
        .expect("large_orders_kafka", row("key", "o-1", "topic", "large_orders"))
        .expectFailedRows("has_id", 0);
    SluiceException field = assertThrows(SluiceException.class, () -> test.given("kafka topic orders", row("headers", "x")));
    assertTrue(field.getMessage().contains("a record of 'kafka topic orders' has a field 'headers'; a Kafka record takes key, value,"
        + " partition, timestamp"), field.getMessage());

    assertTrue(assertThrows(AssertionError.class, () -> test.expectFailedRows("has_id", 1)).getMessage()
        .contains("): expected 1 rows to fail it, 0 did\n"));
    assertTrue(assertThrows(AssertionError.class, () -> test.expectNoRows("SELECT order_id FROM orders")).getMessage()
        .contains("): the query returned rows, and should return none:\n  [o-1]\n"));
    assertTrue(assertThrows(AssertionError.class, () -> test.expectEmpty("order_events")).getMessage()
        .contains("): expected 0 rows, found 1\n"));
    assertTrue(assertThrows(AssertionError.class, () -> test.expectUnchanged("orders")).getMessage()
        .contains("): expected no new version, found version "));
    assertTrue(assertThrows(AssertionError.class, () -> test.expectOrdered("orders_raw", List.of(row("offset", 1), row("offset", 0))))
        .getMessage().contains("compared on offset, in order\nexpected:\n"));
    test.close();
    assertTrue(Files.isDirectory(test.folder()), "a failed test's copy is kept");
  }
}
