package io.sluice.e2e;

import static io.sluice.e2e.CrashRecoveryE2E.commits;
import static io.sluice.e2e.CrashRecoveryE2E.count;
import static io.sluice.e2e.CrashRecoveryE2E.findCheckpoint;
import static io.sluice.e2e.CrashRecoveryE2E.killWhen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.JarBuilder;
import io.sluice.testsupport.KafkaBroker;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges of exactly-once under SIGKILL (SEMANTICS §7, §9), with real processes and a real
 * broker: orders keep arriving on a topic, some twice, while updates are killed at random
 * points, once inside a foreach-batch handler. Then: the table from Kafka holds every record
 * exactly once (by partition and offset); the de-duplicated table every order once; the Delta
 * sinks (by path and by table name) exactly the de-duplicated rows; the Kafka sink every order
 * at least once, and once after a downstream de-duplication by key; the handler got its
 * retried batch with the same id and rows.
 */
@Order(2) // among the longest end-to-end tests: taken first by the thread that works from the front (see the pom)
class KafkaCrashE2E {
  private static final int ORDERS = 240;
  @TempDir Path dir;
  @TempDir Path downstream;

  @Test
  void sigkillsWhileRecordsArriveLoseAndDuplicateNothingWhereExactlyOnceIsPromised() throws Exception {
    KafkaBroker kafka = KafkaBroker.shared();
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String in = "orders_" + suffix;
    String out = "orders_out_" + suffix;
    kafka.createTopic(in, 2);
    kafka.createTopic(out, 1);
    JarBuilder.compileToJar(dir.resolve("lib/handler.jar"), "e2e.Handler", HANDLER);
    PipelineFolder.create(dir, "kafka_crash")
        .spec("""
            name: kafka_crash
            storage: .sluice
            libraries:
              - glob: {include: ["transformations/**/*.sql", "lib/*.jar"]}
              - class: e2e.Handler
            """)
        .sql("orders.sql", """
            CREATE STREAMING TABLE raw AS
            SELECT CAST(key AS STRING) AS id, CAST(value AS STRING) AS at_text, partition, offset
            FROM STREAM read_kafka(bootstrapServers => '%1$s', subscribe => '%2$s', startingOffsets => 'earliest',
                                   maxOffsetsPerTrigger => '25');

            CREATE STREAMING TABLE orders AS
            SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ id, at
            FROM (SELECT id, CAST(at_text AS TIMESTAMP) AS at FROM STREAM(raw)) WATERMARK at DELAY OF INTERVAL 1 HOUR;

            CREATE SINK to_kafka USING kafka OPTIONS ('kafka.bootstrap.servers' = '%1$s', topic = '%3$s');
            CREATE SINK to_path USING delta OPTIONS (path = 'exports/orders');
            CREATE SINK to_table USING delta OPTIONS (tableName = 'orders_copy');

            CREATE FLOW f_kafka AS INSERT INTO to_kafka BY NAME SELECT id AS key, CAST(at AS STRING) AS value FROM STREAM(orders);
            CREATE FLOW f_path AS INSERT INTO to_path BY NAME SELECT id, at FROM STREAM(orders);
            CREATE FLOW f_table AS INSERT INTO to_table BY NAME SELECT id, at FROM STREAM(orders);
            """.formatted(kafka.bootstrap(), in, out));

    // Orders arrive all along: one every 40 ms, each fifth one sent again a little later.
    AtomicInteger sent = new AtomicInteger();
    Thread producer = new Thread(() -> {
      List<String> again = new ArrayList<>();
      for (int i = 1; i <= ORDERS; i++) {
        String order = "o" + i;
        String at = LocalDateTime.of(2026, 12, 1, 12, 0).plusSeconds(i).toString().replace('T', ' ');
        kafka.send(in, order, at);
        if (i % 5 == 0) {
          again.add(order);
          again.add(at);
        }
        if (again.size() == 6) {
          kafka.send(in, again.toArray(String[]::new));
          again.clear();
        }
        sent.incrementAndGet();
        sleep(40);
      }
      kafka.send(in, again.toArray(String[]::new));
    });
    producer.start();

    // Killed at random points: in a batch of raw, in a batch of orders, after a random delay,
    // and inside the foreach-batch handler (which waits there once, for this).
    Random random = new Random();
    killWhen(Sluice.start(dir, "run"), "a batch of raw in flight", () -> inFlight(dir, "raw"));
    killWhen(Sluice.start(dir, "run"), "a batch of orders in flight", () -> inFlight(dir, "orders"));
    long delay = System.nanoTime() + (6_000 + random.nextInt(8_000)) * 1_000_000L;
    killWhen(Sluice.start(dir, "run"), "a random instant", () -> System.nanoTime() > delay);
    killWhen(Sluice.start(dir, "run"), "inside the foreach-batch handler", () -> Files.exists(dir.resolve("in-handler")));
    Files.writeString(dir.resolve("killed-in-handler"), "yes");
    producer.join();

    Sluice.PROCESS.ok(dir, "run");

    // Every record of the topic exactly once in raw.
    List<ConsumerRecord<String, String>> records = kafka.readAll(in);
    assertEquals(ORDERS + ORDERS / 5, records.size());
    List<String> expectedRaw = records.stream().map(r -> r.partition() + "/" + r.offset() + "/" + r.key())
        .sorted().toList();
    Map<String, List<JsonNode>> t = Sluice.PROCESS.queryAll(dir, Map.of("raw", "SELECT * FROM raw",
        "orders", "SELECT * FROM orders", "orders_copy", "SELECT * FROM orders_copy",
        "by_path", "SELECT id FROM delta.`" + dir.resolve("exports/orders") + "`"));
    assertEquals(expectedRaw, t.get("raw").stream()
        .map(r -> r.get("partition").asInt() + "/" + r.get("offset").asLong() + "/" + r.get("id").asText()).sorted().toList(),
        "raw: every record of the topic exactly once");

    // Every order once in orders, and in both Delta sinks.
    List<String> ids = new TreeSet<>(records.stream().map(ConsumerRecord::key).toList()).stream().toList();
    assertEquals(ORDERS, ids.size());
    assertEquals(ids, ids(t.get("orders")), "orders: duplicates dropped within the watermark, across the kills");
    assertEquals(ids, ids(t.get("orders_copy")), "the Delta sink by table name: exactly once");
    assertEquals(ids, ids(t.get("by_path")), "the Delta sink by path: exactly once");

    // The Kafka sink: every order at least once; once each after a de-duplication by key downstream.
    List<String> outKeys = kafka.readAll(out).stream().map(ConsumerRecord::key).sorted().toList();
    assertEquals(ids, new TreeSet<>(outKeys).stream().toList(), "the Kafka sink: every order at least once");
    System.out.println("[e2e] Kafka sink: " + outKeys.size() + " records for " + ids.size() + " orders ("
        + (outKeys.size() - ids.size()) + " duplicates from replayed batches)");
    PipelineFolder.create(downstream, "downstream").sql("echo.sql", """
        CREATE STREAMING TABLE echo AS
        SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(id) */ id, at
        FROM (SELECT CAST(key AS STRING) AS id, CAST(CAST(value AS STRING) AS TIMESTAMP) AS at
              FROM STREAM read_kafka(bootstrapServers => '%s', subscribe => '%s', startingOffsets => 'earliest'))
             WATERMARK at DELAY OF INTERVAL 1 HOUR;
        """.formatted(kafka.bootstrap(), out));
    Sluice.PROCESS.ok(downstream, "run");
    assertEquals(ids, ids(Sluice.PROCESS.tables(downstream, "echo").get("echo")), "downstream: each order once");

    // The handler: the batch it was killed in came again with the same id and rows.
    Map<String, List<String>> calls = new HashMap<>();
    for (String line : Files.readAllLines(dir.resolve("handler.log"))) {
      calls.computeIfAbsent(line.substring(0, line.indexOf(':')), k -> new ArrayList<>()).add(line);
    }
    String killedBatch = Files.readString(dir.resolve("in-handler")).trim();
    assertTrue(calls.get(killedBatch).size() >= 2, "batch " + killedBatch + " retried: " + calls.get(killedBatch));
    calls.forEach((batch, lines) -> assertEquals(1, new TreeSet<>(lines).size(), "batch " + batch + " the same each time: " + lines));
    assertEquals(ids, calls.values().stream().map(l -> l.get(0)).flatMap(l -> List.of(l.substring(l.indexOf(':') + 1)
        .split(",")).stream()).filter(s -> !s.isEmpty()).sorted().distinct().collect(Collectors.toList()),
        "the handler saw every order");
  }

  /** Whether a batch of the flow has begun (its offsets written) and not committed, after one that has. */
  private static boolean inFlight(Path pipeline, String flow) {
    Path checkpoint = findCheckpoint(pipeline, flow);
    return checkpoint != null && commits(checkpoint) >= 1 && count(checkpoint.resolve("offsets")) > commits(checkpoint);
  }

  private static List<String> ids(List<JsonNode> rows) {
    return rows.stream().map(r -> r.get("id").asText()).sorted().toList();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A foreach-batch sink that logs each batch as "id:order,order,...", and, until the test says
   * it was killed there, marks that it is inside and waits to be killed.
   */
  private static final String HANDLER = """
      package e2e;

      import io.sluice.api.Pipeline;
      import io.sluice.api.PipelineDefinition;
      import java.nio.file.Files;
      import java.nio.file.Path;
      import java.nio.file.StandardCopyOption;
      import java.nio.file.StandardOpenOption;
      import java.util.stream.Collectors;

      public class Handler implements PipelineDefinition {
        @Override
        public void define(Pipeline p) {
          p.foreachBatchSink("handler", (batch, batchId) -> {
            String ids = batch.select("id").collectAsList().stream().map(r -> r.getString(0)).sorted()
                .collect(Collectors.joining(","));
            Path here = Path.of("").toAbsolutePath();
            if (!Files.exists(here.resolve("killed-in-handler"))) {
              Files.writeString(here.resolve("handler.log"), batchId + ":" + ids + "\\n",
                  StandardOpenOption.CREATE, StandardOpenOption.APPEND);
              // Written whole before it exists: the test kills the process as soon as it sees it.
              Path marking = Files.writeString(here.resolve("in-handler.tmp"), String.valueOf(batchId));
              Files.move(marking, here.resolve("in-handler"), StandardCopyOption.ATOMIC_MOVE);
              Thread.sleep(120_000);
            }
            Files.writeString(here.resolve("handler.log"), batchId + ":" + ids + "\\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          });
          p.flow("f_handler").into("handler").query(ctx -> ctx.readStream("orders"));
        }
      }
      """;
}
