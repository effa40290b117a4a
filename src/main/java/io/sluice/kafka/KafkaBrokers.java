package io.sluice.kafka;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.graph.GraphException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Asks the brokers a Kafka source or sink names whether they answer and hold its topics,
 * before any stream starts: Kafka's clients otherwise retry for minutes against a broker that
 * is down, and Spark's source fails late on a missing topic.
 */
public final class KafkaBrokers {
  /** How long the brokers have to answer. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final String PREFIX = "kafka.";

  private KafkaBrokers() {}

  /**
   * Checks that the brokers of {@code options} (Spark's Kafka options: {@code kafka.}-prefixed
   * client settings) answer and hold {@code topics}.
   *
   * @param what names the source or sink in errors, e.g. {@code read_kafka} or {@code sink 'big_orders'}
   */
  public static void check(Map<String, String> options, Collection<String> topics, String what, Origin origin) {
    Map<String, Object> config = new HashMap<>();
    options.forEach((key, value) -> {
      if (key.toLowerCase(Locale.ROOT).startsWith(PREFIX)) {
        config.put(key.substring(PREFIX.length()), value);
      }
    });
    String servers = String.valueOf(config.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    int millis = (int) TIMEOUT.toMillis();
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    config.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "sluice-check");
    Admin admin;
    try {
      admin = Admin.create(config);
    } catch (KafkaException e) {
      throw new GraphException(ErrorClass.KAFKA_UNREACHABLE, origin,
          what + ": cannot reach Kafka at '" + servers + "': " + rootMessage(e), e);
    }
    try {
      admin.describeCluster().nodes().get(millis, TimeUnit.MILLISECONDS);
      if (!topics.isEmpty()) {
        Set<String> existing = admin.listTopics().names().get(millis, TimeUnit.MILLISECONDS);
        for (String topic : topics) {
          if (!existing.contains(topic)) {
            throw new GraphException(ErrorClass.KAFKA_TOPIC_NOT_FOUND, origin, what + ": topic '" + topic
                + "' does not exist on " + servers + "; create it or correct the name");
          }
        }
      }
    } catch (TimeoutException e) {
      throw unreachable(what, servers, origin, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new GraphException(ErrorClass.KAFKA_TOPIC_NOT_FOUND, origin, what + ": " + e.getCause().getMessage(), e);
      }
      if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
        throw unreachable(what, servers, origin, e);
      }
      throw new GraphException(ErrorClass.KAFKA_UNREACHABLE, origin, what + ": Kafka at '" + servers + "' failed: "
          + rootMessage(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking Kafka at " + servers, e);
    } finally {
      admin.close(Duration.ofSeconds(1));
    }
  }

  private static GraphException unreachable(String what, String servers, Origin origin, Exception e) {
    return new GraphException(ErrorClass.KAFKA_UNREACHABLE, origin, what + ": no Kafka broker answered at '" + servers
        + "' within " + TIMEOUT.toSeconds() + " s; is it running, and is the address right?", e);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage();
  }
}
