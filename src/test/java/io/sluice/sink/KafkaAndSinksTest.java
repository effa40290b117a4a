package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.KafkaBroker;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka in and out, and sinks (SEMANTICS §9), on a real broker: what lands in the table, on
 * the topic and in the Delta sinks after each update, and what a full refresh of a sink does.
 */
class KafkaAndSinksTest {
  private static final KafkaBroker KAFKA = KafkaBroker.shared();
  @TempDir Path dir;

  private static String topic(String name) {
    return name + "_" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void kafkaIntoATableAndOutToKafkaAndDeltaSinks() {
    String in = topic("orders");
    String out = topic("big_orders");
    KAFKA.createTopic(in, 2);
    KAFKA.createTopic(out, 1);
    KAFKA.send(in, "o1", "{\"id\":1,\"amount\":50}", "o2", "{\"id\":2,\"amount\":500}", "o3", "{\"id\":3,\"amount\":900}");
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE orders AS
        SELECT CAST(key AS STRING) AS k, CAST(get_json_object(CAST(value AS STRING), '$.amount') AS INT) AS amount,
               topic, partition, offset
        FROM STREAM read_kafka(bootstrapServers => '%1$s', subscribe => '%2$s', startingOffsets => 'earliest');

        CREATE SINK big_to_kafka USING kafka OPTIONS ('kafka.bootstrap.servers' = '%1$s', topic = '%3$s');
        CREATE SINK big_to_path USING delta OPTIONS (path = 'exports/big');
        CREATE SINK big_to_table USING delta OPTIONS (tableName = 'big_copy');

        CREATE FLOW to_kafka AS INSERT INTO big_to_kafka BY NAME
        SELECT k AS key, CAST(amount AS STRING) AS value, array(named_struct('key', 'from', 'value', CAST(topic AS BINARY))) AS headers
        FROM STREAM(orders) WHERE amount > 100;
        CREATE FLOW to_path AS INSERT INTO big_to_path BY NAME SELECT k, amount FROM STREAM(orders) WHERE amount > 100;
        CREATE FLOW to_table AS INSERT INTO big_to_table BY NAME SELECT k, amount FROM STREAM orders WHERE amount > 100;
        """.formatted(KAFKA.bootstrap(), in, out));

    UpdateResult first = p.run();
    assertTrue(first.succeeded(), first.toString());
    assertEquals(List.of("[o1,50]", "[o2,500]", "[o3,900]"), p.rows("SELECT k, amount FROM orders"));
    assertEquals(List.of("[" + in + ",3]"), p.rows("SELECT topic, count(DISTINCT partition, offset) FROM orders GROUP BY topic"));
    assertEquals(List.of("o2=500", "o3=900"), keyValues(out));
    assertEquals(List.of(in, in), KAFKA.readAll(out).stream()
        .map(r -> new String(r.headers().lastHeader("from").value(), StandardCharsets.UTF_8)).toList(),
        "the headers column becomes the records' headers");
    String path = dir.resolve("exports/big").toString();
    assertEquals(List.of("[o2,500]", "[o3,900]"), p.rows("SELECT * FROM delta.`" + path + "`"));
    assertEquals(List.of("[o2,500]", "[o3,900]"), p.rows("SELECT * FROM big_copy"));

    KAFKA.send(in, "o4", "{\"id\":4,\"amount\":700}");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("o2=500", "o3=900", "o4=700"), keyValues(out), "only the new row goes out");
    assertEquals(List.of("[o2,500]", "[o3,900]", "[o4,700]"), p.rows("SELECT * FROM delta.`" + path + "`"));
    assertEquals(List.of("[o2,500]", "[o3,900]", "[o4,700]"), p.rows("SELECT * FROM big_copy"));

    // A full refresh of a sink restarts its flow from the start of its source and appends again.
    assertTrue(p.run(new UpdateOptions(false, List.of("big_to_path"), List.of())).succeeded());
    assertEquals(List.of("[o2,500]", "[o2,500]", "[o3,900]", "[o3,900]", "[o4,700]", "[o4,700]"),
        p.rows("SELECT * FROM delta.`" + path + "`"));
    assertEquals(3, p.rows("SELECT * FROM big_copy").size(), "the other sinks are left alone");
    assertEquals(3, KAFKA.values(out).size());
  }

  @Test
  void foreachBatchSinkSeesStableBatchIdsAndRestartsAtZeroAfterAFullRefresh() {
    String in = topic("events");
    KAFKA.createTopic(in, 1);
    KAFKA.send(in, "a", "1", "b", "2", "b2", "2");
    ForeachBatchDefinitions.CALLS.clear();
    TestPipeline p = new TestPipeline(dir)
        .libraries("- glob: {include: transformations/**/*.sql}", "- class: " + ForeachBatchDefinitions.class.getName())
        .sql("""
            CREATE STREAMING TABLE events AS
            SELECT CAST(key AS STRING) AS k, CAST(value AS STRING) AS v
            FROM STREAM read_kafka(bootstrapServers => '%s', subscribe => '%s', startingOffsets => 'earliest');
            """.formatted(KAFKA.bootstrap(), in));
    assertTrue(p.run().succeeded());
    KAFKA.send(in, "c", "3", "b3", "2");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("0:[a,1][b,2][b2,2]", "1:[b3,2][c,3]"), ForeachBatchDefinitions.CALLS);
    assertEquals(List.of("1", "2", "3"), p.rows("SELECT v FROM events_once").stream().map(r -> r.substring(1, 2)).toList(),
        "value 2, sent three times over two updates, once (Java's dropDuplicatesWithinWatermark)");

    UpdateResult refreshed = p.run(new UpdateOptions(false, List.of("handler"), List.of()));
    assertTrue(refreshed.succeeded(), refreshed.toString());
    assertEquals(List.of("0:[a,1][b,2][b2,2]", "1:[b3,2][c,3]", "0:[a,1][b,2][b2,2][b3,2][c,3]"), ForeachBatchDefinitions.CALLS);
    assertEquals(5, p.rows("SELECT * FROM events").size(), "the table it reads is not refreshed");
    assertEquals(List.of("[a,1]", "[b,2]", "[b2,2]", "[b3,2]", "[c,3]"),
        p.rows("SELECT * FROM delta.`" + dir.resolve("exports/copy") + "`"),
        "the Java API's Delta sink, its path under the pipeline folder, is left alone");
  }

  @Test
  void duplicatesWithinTheWatermarkAreDroppedAcrossUpdatesAndLateRowsToo() {
    String in = topic("clicks");
    KAFKA.createTopic(in, 1);
    KAFKA.send(in, "c1", "2026-12-01 12:00:00", "c2", "2026-12-01 12:01:00", "c1", "2026-12-01 12:00:00");
    TestPipeline p = new TestPipeline(dir).sql("""
        CREATE STREAMING TABLE clicks AS
        SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ id, at
        FROM (SELECT CAST(key AS STRING) AS id, CAST(CAST(value AS STRING) AS TIMESTAMP) AS at
              FROM STREAM read_kafka(bootstrapServers => '%s', subscribe => '%s', startingOffsets => 'earliest'))
             WATERMARK at DELAY OF INTERVAL 10 MINUTES;
        """.formatted(KAFKA.bootstrap(), in));
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[c1,2026-12-01 12:00:00.0]", "[c2,2026-12-01 12:01:00.0]"), p.rows("SELECT * FROM clicks"));

    // The watermark is now 11:51 (latest 12:01 less 10 minutes), kept in the checkpoint.
    KAFKA.send(in, "c2", "2026-12-01 12:05:00", "c3", "2026-12-01 12:06:00", "late", "2026-12-01 11:00:00");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[c1,2026-12-01 12:00:00.0]", "[c2,2026-12-01 12:01:00.0]", "[c3,2026-12-01 12:06:00.0]"),
        p.rows("SELECT * FROM clicks"), "c2 again within the delay and the row behind the watermark are dropped");
  }

  @Test
  void theWatermarkClauseFollowsEachKindOfStreamingSource() {
    String in = topic("ticks");
    KAFKA.createTopic(in, 1);
    KAFKA.send(in, "t1", "x", "t1", "x");
    String twice = "{\"id\": 1, \"at\": \"2026-12-01T12:00:00\"}\n";
    TestPipeline p = new TestPipeline(dir).write("landing/a.json", twice + twice).sql("""
        CREATE STREAMING TABLE files_all AS
        SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, at TIMESTAMP');

        CREATE STREAMING TABLE from_files AS
        SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ id, at
        FROM STREAM read_files('landing', format => 'json', schema => 'id INT, at TIMESTAMP') WATERMARK at DELAY OF INTERVAL 1 MINUTE;

        CREATE STREAMING TABLE from_table AS
        SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ id, at FROM STREAM(files_all) WATERMARK at DELAY OF INTERVAL 1 MINUTE;

        CREATE STREAMING TABLE from_kafka AS
        SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(k) */ CAST(key AS STRING) AS k, timestamp
        FROM STREAM read_kafka(bootstrapServers => '%s', subscribe => '%s', startingOffsets => 'earliest')
             WATERMARK timestamp DELAY OF INTERVAL 1 MINUTE;
        """.formatted(KAFKA.bootstrap(), in));
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[2]"), p.rows("SELECT count(*) FROM files_all"));
    assertEquals(List.of("[1]"), p.rows("SELECT count(*) FROM from_files"));
    assertEquals(List.of("[1]"), p.rows("SELECT count(*) FROM from_table"));
    assertEquals(List.of("[1]"), p.rows("SELECT count(*) FROM from_kafka"));
  }

  private static List<String> keyValues(String topic) {
    return KAFKA.readAll(topic).stream().map(r -> r.key() + "=" + r.value()).sorted().collect(Collectors.toList());
  }
}
