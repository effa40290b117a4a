package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static io.sluice.testsupport.JsonRows.rows;
import static io.sluice.testsupport.JsonRows.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.KafkaBroker;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/kafka} as shipped (SEMANTICS §9), against the tests' broker: its address
 * and topic names are the only words changed. The commands of docs/sql.md ("A broker on your
 * machine") produce {@code data/orders.tsv}; here the same records are sent, then a late and a
 * repeated one.
 */
class KafkaExampleTest {
  static final Path EXAMPLE = Path.of("examples/kafka").toAbsolutePath();
  private static final KafkaBroker KAFKA = KafkaBroker.shared();

  @TempDir Path dir;

  @Test
  void ordersAreDeduplicatedKeptCurrentAndLargeOnesSentOut() throws IOException {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String in = "orders_" + suffix;
    String out = "large_orders_" + suffix;
    PipelineFolder.copyOf(EXAMPLE, dir).inItsOwnDatabase();
    Path sql = dir.resolve("transformations/orders.sql");
    Files.writeString(sql, Files.readString(sql).replace("127.0.0.1:9092", KAFKA.bootstrap())
        .replace("'orders'", "'" + in + "'").replace("'large_orders'", "'" + out + "'"));
    KAFKA.createTopic(in, 2);
    KAFKA.createTopic(out, 1);
    KAFKA.send(in, records(Files.readAllLines(dir.resolve("data/orders.tsv"))));
    IN_PROCESS.ok(dir, "run");

    // A repeat of an event already seen, and an event behind the watermark (09:08 less 10 minutes).
    KAFKA.send(in, records(List.of(
        "o-1004\t{\"order_id\":\"o-1004\",\"version\":1,\"status\":\"placed\",\"amount\":4200.00,\"customer\":\"edsger\",\"event_time\":\"2026-12-01T09:06:00\"}",
        "o-0999\t{\"order_id\":\"o-0999\",\"version\":1,\"status\":\"placed\",\"amount\":5.00,\"customer\":\"late\",\"event_time\":\"2026-12-01T08:00:00\"}",
        "o-1005\t{\"order_id\":\"o-1005\",\"version\":1,\"status\":\"placed\",\"amount\":1200.00,\"customer\":\"barbara\",\"event_time\":\"2026-12-01T09:10:00\"}")));
    IN_PROCESS.ok(dir, "run");

    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, Map.of(
        "raw", "SELECT * FROM orders_raw",
        "events", "SELECT * FROM order_events",
        "orders", "SELECT * FROM orders",
        "exported", "SELECT * FROM delta.`" + dir.resolve("exports/large_orders") + "`"));
    assertEquals(11, t.get("raw").size(), "every record of the topic");
    assertEquals(sorted("o-1001|1", "o-1001|2", "o-1002|1", "o-1002|2", "o-1003|1", "o-1003|2", "o-1004|1", "o-1005|1"),
        rows(t.get("events"), "order_id", "version"), "each event once; the late one dropped");
    assertEquals(sorted("o-1001|2|shipped", "o-1002|2|shipped", "o-1003|2|cancelled", "o-1004|1|placed", "o-1005|1|placed"),
        rows(t.get("orders"), "order_id", "version", "status"), "the current state of each order");
    assertEquals(sorted("o-1002|1", "o-1002|2", "o-1004|1", "o-1005|1"), rows(t.get("exported"), "order_id", "version"),
        "the large orders in the Delta sink");
    assertEquals(sorted("o-1002", "o-1002", "o-1004", "o-1005"),
        KAFKA.readAll(out).stream().map(r -> r.key()).sorted().toList(), "and on the Kafka topic");
  }

  /** "key<TAB>value" lines, as {@code bin/sluice-kafka produce} reads them, as key, value, key, value, ... */
  private static String[] records(List<String> lines) {
    List<String> keyValues = new ArrayList<>();
    for (String line : lines) {
      int tab = line.indexOf('\t');
      keyValues.add(line.substring(0, tab));
      keyValues.add(line.substring(tab + 1));
    }
    return keyValues.toArray(String[]::new);
  }
}
