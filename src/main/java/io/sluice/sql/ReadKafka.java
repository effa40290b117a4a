package io.sluice.sql;

import io.sluice.Origin;
import io.sluice.common.SparkPlans;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.GraphException;
import io.sluice.kafka.KafkaBrokers;
import io.sluice.kafka.TestTopics;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedArgumentExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code read_kafka(bootstrapServers => ..., subscribe => ..., <option> => value)} table
 * function, with Databricks' parameter names (SEMANTICS §9.4): Spark's own Kafka source, a
 * stream inside {@code STREAM} (its offsets in the flow's checkpoint) or a batch. Every
 * argument but {@code bootstrapServers} is a Kafka source option of Spark's, passed as is.
 * The brokers and the subscribed topics are checked when the flow is resolved. In a pipeline's
 * test, the topics are the test's tables instead ({@link TestTopics}).
 */
final class ReadKafka {
  static final String NAME = "read_kafka";
  private static final String BOOTSTRAP_SERVERS = "bootstrapServers";
  private static final List<String> SUBSCRIPTIONS = List.of("subscribe", "subscribePattern", "assign");
  private static final ObjectMapper JSON = new ObjectMapper();

  private ReadKafka() {}

  static boolean isReadKafka(UnresolvedTableValuedFunction function) {
    List<String> name = CollectionConverters.asJava(function.name());
    return name.size() == 1 && name.get(0).equalsIgnoreCase(NAME);
  }

  static LogicalPlan plan(FlowResolution resolution, UnresolvedTableValuedFunction function, boolean streaming, Origin origin) {
    SparkSession spark = resolution.spark();
    Map<String, String> options = new LinkedHashMap<>();
    String servers = null;
    List<String> subscriptions = new ArrayList<>();
    for (Expression argument : CollectionConverters.asJava(function.functionArgs())) {
      if (!(argument instanceof NamedArgumentExpression named)) {
        throw error(origin, "takes named arguments only, as in bootstrapServers => 'host:9092', subscribe => 'topic'");
      }
      String value = FunctionArguments.constant(spark, named.value(), NAME, named.key(), origin);
      if (named.key().equalsIgnoreCase(BOOTSTRAP_SERVERS)) {
        servers = value;
        options.put("kafka.bootstrap.servers", value);
        continue;
      }
      SUBSCRIPTIONS.stream().filter(s -> s.equalsIgnoreCase(named.key())).forEach(subscriptions::add);
      options.put(named.key(), value);
    }
    if (servers == null) {
      throw error(origin, "needs bootstrapServers => 'host:port' (the brokers to read from)");
    }
    if (subscriptions.size() != 1) {
      throw error(origin, "needs one of subscribe => 'topic', subscribePattern => 'regex' or assign => '{\"topic\":[0]}'"
          + (subscriptions.isEmpty() ? "" : "; it has " + String.join(" and ", subscriptions)));
    }
    String subscription = subscriptions.get(0);
    List<String> topics = topics(subscription, optionIgnoringCase(options, subscription), origin);
    Optional<String> testTopics = TestTopics.folder(spark);
    if (testTopics.isPresent()) {
      if (topics.isEmpty()) {
        throw error(origin, "in a test reads the topics that subscribe => 'topic' or assign names, not a pattern");
      }
      return SparkPlans.logicalPlan(TestTopics.read(spark, testTopics.get(), topics, streaming));
    }
    KafkaBrokers.check(options, topics, NAME, origin);
    return SparkPlans.logicalPlan(streaming
        ? spark.readStream().format("kafka").options(options).load()
        : spark.read().format("kafka").options(options).load());
  }

  /** The topics a subscription names outright; a pattern names none. */
  private static List<String> topics(String subscription, String value, Origin origin) {
    switch (subscription.toLowerCase(Locale.ROOT)) {
      case "subscribe":
        return List.of(value.split(",")).stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
      case "assign":
        try {
          List<String> topics = new ArrayList<>();
          Iterator<String> names = JSON.readTree(value).fieldNames();
          names.forEachRemaining(topics::add);
          return topics;
        } catch (JsonProcessingException e) {
          throw error(origin, "assign takes JSON such as '{\"topic\":[0,1]}', not " + value);
        }
      default:
        return List.of();
    }
  }

  private static String optionIgnoringCase(Map<String, String> options, String name) {
    return options.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst().orElseThrow().getValue();
  }

  private static GraphException error(Origin origin, String message) {
    return FunctionArguments.error(NAME, origin, message);
  }
}
