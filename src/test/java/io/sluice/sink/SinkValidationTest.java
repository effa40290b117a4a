package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testsupport.KafkaBroker;
import io.sluice.testsupport.TestPipeline;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad sinks, Kafka sources and de-duplication (SEMANTICS §9): each fails the update before
 * anything is written, with its error class, the definition's line and what to do.
 */
class SinkValidationTest {
  private static final KafkaBroker KAFKA = KafkaBroker.shared();
  private static final String TOPIC = "validation_" + UUID.randomUUID().toString().substring(0, 8);
  @TempDir Path dir;

  static {
    KAFKA.createTopic(TOPIC, 1);
  }

  private SluiceException failsToRun(String sql) {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n")
        .sql(sql.replace("BROKER", KAFKA.bootstrap()).replace("TOPIC", TOPIC));
    SluiceException error = assertThrows(SluiceException.class, p::run);
    assertFalse(p.spark().catalog().databaseExists(p.database()), "nothing is written: " + error.userMessage());
    return error;
  }

  private static void assertMentions(SluiceException e, String... parts) {
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
    }
  }

  @Test
  void aBrokerThatDoesNotAnswerFailsWithinBoundedTime() throws IOException {
    int nobody = KafkaBroker.freePortPair();
    Instant start = Instant.now();
    SluiceException e = failsToRun("CREATE STREAMING TABLE t AS SELECT * FROM STREAM read_kafka(bootstrapServers => '127.0.0.1:"
        + nobody + "', subscribe => 'x');");
    assertEquals("KAFKA_UNREACHABLE", e.errorClass());
    assertEquals("transformations/pipeline.sql:1", e.origin().toString());
    assertMentions(e, "127.0.0.1:" + nobody, "within 10 s");
    assertTrue(Duration.between(start, Instant.now()).toSeconds() < 40, "bounded: " + Duration.between(start, Instant.now()));
  }

  @Test
  void aTopicThatDoesNotExist() {
    SluiceException e = failsToRun("CREATE STREAMING TABLE t AS\nSELECT * FROM STREAM read_kafka(bootstrapServers => 'BROKER', subscribe => 'no_such_topic');");
    assertEquals("KAFKA_TOPIC_NOT_FOUND", e.errorClass());
    assertEquals(2, e.origin().line(), "the line of the query");
    assertMentions(e, "'no_such_topic' does not exist");
  }

  @Test
  void readKafkaWithoutServersOrSubscription() {
    SluiceException noServers = failsToRun("CREATE STREAMING TABLE t AS SELECT * FROM STREAM read_kafka(subscribe => 'TOPIC');");
    assertEquals("INVALID_READ_KAFKA", noServers.errorClass());
    assertMentions(noServers, "needs bootstrapServers");
    SluiceException noTopic = failsToRun("CREATE STREAMING TABLE t AS SELECT * FROM STREAM read_kafka(bootstrapServers => 'BROKER');");
    assertEquals("INVALID_READ_KAFKA", noTopic.errorClass());
    assertMentions(noTopic, "needs one of subscribe");
    SluiceException two = failsToRun("CREATE STREAMING TABLE t AS SELECT * FROM STREAM read_kafka(bootstrapServers => 'BROKER',"
        + " subscribe => 'TOPIC', subscribePattern => 'x.*');");
    assertMentions(two, "it has subscribe and subscribePattern");
  }

  private static final String SOURCE = "CREATE STREAMING TABLE src AS SELECT * FROM STREAM read_files('landing', format => 'json');\n";

  @Test
  void aKafkaSinkWhoseRowsHaveNoValue() {
    SluiceException e = failsToRun(SOURCE + """
        CREATE SINK out USING kafka OPTIONS ('kafka.bootstrap.servers' = 'BROKER', topic = 'TOPIC');
        CREATE FLOW f AS INSERT INTO out BY NAME SELECT id, v FROM STREAM(src);
        """);
    assertEquals("KAFKA_SINK_COLUMNS", e.errorClass());
    assertEquals(3, e.origin().line());
    assertMentions(e, "has no 'value' column", "to_json(struct(*)) AS value");
    SluiceException type = failsToRun(SOURCE + """
        CREATE SINK out USING kafka OPTIONS ('kafka.bootstrap.servers' = 'BROKER', topic = 'TOPIC');
        CREATE FLOW f AS INSERT INTO out BY NAME SELECT id AS value FROM STREAM(src);
        """);
    assertMentions(type, "column 'value' of type BIGINT; Kafka takes STRING or BINARY");
  }

  @Test
  void sinksWithAnUnknownFormatOrWithoutTheirOptions() {
    SluiceException format = failsToRun(SOURCE + "CREATE SINK out USING kafkaa;\nCREATE FLOW f AS INSERT INTO out BY NAME SELECT * FROM STREAM(src);");
    assertEquals("SINK_UNKNOWN_FORMAT", format.errorClass());
    assertEquals(2, format.origin().line());
    assertMentions(format, "'kafkaa'");
    SluiceException delta = failsToRun(SOURCE + "CREATE SINK out USING delta;\nCREATE FLOW f AS INSERT INTO out BY NAME SELECT * FROM STREAM(src);");
    assertEquals("SINK_OPTIONS", delta.errorClass());
    assertMentions(delta, "'path' and 'tableName'");
    SluiceException kafka = failsToRun(SOURCE + "CREATE SINK out USING kafka OPTIONS (topic = 't');\n"
        + "CREATE FLOW f AS INSERT INTO out BY NAME SELECT CAST(v AS STRING) AS value FROM STREAM(src);");
    assertMentions(kafka, "'kafka.bootstrap.servers'");
  }

  @Test
  void aSinkNamedLikeATable() {
    SluiceException e = failsToRun(SOURCE + "CREATE SINK src USING delta OPTIONS (path = '/tmp/x');");
    assertEquals("DUPLICATE_DATASET", e.errorClass());
    assertEquals(2, e.origin().line());
  }

  @Test
  void keyedFlowsAndExpectationsIntoASink() {
    SluiceException cdc = failsToRun(SOURCE + """
        CREATE SINK out USING delta OPTIONS (path = 'out');
        CREATE FLOW f AS AUTO CDC INTO out FROM STREAM(src) KEYS (id) SEQUENCE BY id;
        """);
    assertEquals("SINK_FLOW_KIND", cdc.errorClass());
    assertEquals(3, cdc.origin().line());
    SluiceException replace = failsToRun(SOURCE + """
        CREATE SINK out USING delta OPTIONS (path = 'out');
        CREATE FLOW f AS INSERT INTO out BY NAME REPLACE USING (id) SEQUENCE BY id SELECT * FROM STREAM(src);
        """);
    assertEquals("SINK_FLOW_KIND", replace.errorClass());
    SluiceException expectations = failsToRun(SOURCE + """
        CREATE SINK out (CONSTRAINT ok EXPECT (id > 0)) USING delta OPTIONS (path = 'out');
        """);
    assertEquals("SINK_DEFINITION", expectations.errorClass());
    assertMentions(expectations, "put expectations on the table the flow reads");
  }

  @Test
  void aSinkReadAsASourceAndABatchFlowIntoASink() {
    SluiceException read = failsToRun(SOURCE + """
        CREATE SINK out USING delta OPTIONS (path = 'out');
        CREATE FLOW f AS INSERT INTO out BY NAME SELECT * FROM STREAM(src);
        CREATE MATERIALIZED VIEW again AS SELECT * FROM out;
        """);
    assertEquals("SINK_READ", read.errorClass());
    assertEquals(4, read.origin().line());
    SluiceException batch = failsToRun(SOURCE + """
        CREATE SINK out USING delta OPTIONS (path = 'out');
        CREATE FLOW f AS INSERT INTO out BY NAME SELECT * FROM src;
        """);
    assertEquals("FLOW_NOT_STREAMING", batch.errorClass());
  }

  @Test
  void aMisspeltHintAndDeduplicationWithoutWatermark() {
    SluiceException hint = failsToRun("CREATE STREAMING TABLE t AS\n"
        + "SELECT /*+ DROP_DUPLICATE_WITHIN_WATERMARK(id) */ * FROM STREAM read_files('landing', format => 'json');");
    assertEquals("UNKNOWN_HINT", hint.errorClass());
    assertMentions(hint, "'DROP_DUPLICATE_WITHIN_WATERMARK'", "DROP_DUPLICATES_WITHIN_WATERMARK(column, ...)");
    SluiceException watermark = failsToRun("CREATE STREAMING TABLE t AS\n"
        + "SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ * FROM STREAM read_files('landing', format => 'json');");
    assertEquals("DEDUPLICATION_WITHOUT_WATERMARK", watermark.errorClass());
    assertMentions(watermark, "add WATERMARK column DELAY OF INTERVAL");
    SluiceException dropped = failsToRun("CREATE STREAMING TABLE t AS\n"
        + "SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ id FROM (SELECT *, current_timestamp() AS at FROM STREAM "
        + "read_files('landing', format => 'json')) WATERMARK at DELAY OF INTERVAL 1 MINUTE;");
    assertMentions(dropped, "keep that column in the select");
    SluiceException column = failsToRun("CREATE STREAMING TABLE t AS\n"
        + "SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(nope) */ * FROM (SELECT *, current_timestamp() AS at FROM STREAM "
        + "read_files('landing', format => 'json')) WATERMARK at DELAY OF INTERVAL 1 MINUTE;");
    assertEquals("DEDUPLICATION_WITHOUT_WATERMARK", column.errorClass());
    assertMentions(column, "nope");
  }
}
