package io.sluice.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A real single-node Kafka broker (KRaft) on a free loopback port, started with the project's
 * own {@code bin/sluice-kafka} (Kafka's jars from Maven Central) once per test JVM, and stopped
 * when the JVM exits. Tests keep apart by topic names of their own.
 */
public final class KafkaBroker {
  private static final Path REPO = Path.of("").toAbsolutePath();
  private static final Path SCRIPT = REPO.resolve("bin/sluice-kafka");
  private static KafkaBroker shared;
  private final int port;
  private final Path dir;

  private KafkaBroker(int port, Path dir) {
    this.port = port;
    this.dir = dir;
  }

  /** The JVM's broker, started on first use. */
  public static synchronized KafkaBroker shared() {
    if (shared == null) {
      try {
        Path dir = Files.createTempDirectory("sluice-test-kafka");
        shared = start(freePortPair(), dir);
        KafkaBroker broker = shared;
        Runtime.getRuntime().addShutdownHook(new Thread(broker::stop));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return shared;
  }

  /** Starts a broker on {@code port} (its controller on the next port), keeping its data in {@code dir}. */
  public static KafkaBroker start(int port, Path dir) {
    String output = script("start", "--port", String.valueOf(port), "--dir", dir.toString());
    if (!output.contains("broker on")) {
      throw new IllegalStateException("bin/sluice-kafka start failed: " + output);
    }
    return new KafkaBroker(port, dir);
  }

  public void stop() {
    script("stop", "--dir", dir.toString());
  }

  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public void createTopic(String topic, int partitions) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | InterruptedException | TimeoutException e) {
      throw new IllegalStateException("cannot create topic " + topic, e);
    }
  }

  /** Sends {@code keyValues} (key, value, key, value, ...) to {@code topic} and waits for the broker's acknowledgement. */
  public void send(String topic, String... keyValues) {
    Properties config = new Properties();
    config.put("bootstrap.servers", bootstrap());
    config.put("acks", "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < keyValues.length; i += 2) {
        producer.send(new ProducerRecord<>(topic, keyValues[i], keyValues[i + 1])).get(30, TimeUnit.SECONDS);
      }
    } catch (ExecutionException | InterruptedException | TimeoutException e) {
      throw new IllegalStateException("cannot send to " + topic, e);
    }
  }

  /** Every record of {@code topic}, from its start to its current end. */
  public List<ConsumerRecord<String, String>> readAll(String topic) {
    Properties config = new Properties();
    config.put("bootstrap.servers", bootstrap());
    config.put("enable.auto.commit", "false");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<ConsumerRecord<String, String>> records = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("timed out reading " + topic);
        }
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
      return records;
    }
  }

  /** The values of every record of {@code topic}. */
  public List<String> values(String topic) {
    return readAll(topic).stream().map(ConsumerRecord::value).collect(Collectors.toList());
  }

  /** Runs bin/sluice-kafka; returns what it printed. */
  private static String script(String... args) {
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor();
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A free port whose next port is free too: the broker's and its controller's. */
  public static int freePortPair() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      try (ServerSocket next = new ServerSocket(port + 1)) {
        return port;
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException("no two free ports in a row");
  }
}
