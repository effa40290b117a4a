package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.ResolvedGraph;
import java.time.Duration;
import org.apache.spark.sql.SparkSession;

/**
 * How often a failed flow is tried again before it fails the update (SEMANTICS §10.2): the
 * target's {@code pipelines.maxFlowRetryAttempts}, else the spec's {@code configuration}, else
 * 2; waiting 1 s, then 2 s, 4 s, ... (at most 30 s) between tries. Only failures that another
 * try may not meet again are retried: Spark's and Delta's, not a violated expectation or a bad key,
 * which the same rows would violate again.
 */
record FlowRetries(int attempts) {
  static final String MAX_ATTEMPTS = "pipelines.maxFlowRetryAttempts";
  private static final int DEFAULT = 2;
  private static final Duration MAX_WAIT = Duration.ofSeconds(30);

  static FlowRetries of(SparkSession spark, DatasetDefinition target) {
    String property = target.properties().get(MAX_ATTEMPTS);
    String value = property != null ? property
        : spark.conf().getOption(MAX_ATTEMPTS).getOrElse(() -> String.valueOf(DEFAULT));
    try {
      int attempts = Integer.parseInt(value.trim());
      if (attempts < 0) {
        throw new NumberFormatException();
      }
      return new FlowRetries(attempts);
    } catch (NumberFormatException e) {
      String rule = "'; it takes a whole number of retries, 0 or more";
      throw property != null
          ? new SluiceException(ErrorClass.INVALID_TABLE_PROPERTY, target.origin(),
              MAX_ATTEMPTS + " of '" + target.name() + "' is '" + value + rule)
          : new SluiceException(ErrorClass.INVALID_CONFIGURATION,
              "the spec's configuration sets " + MAX_ATTEMPTS + " to '" + value + rule);
    }
  }

  /** Refuses, before anything runs, a table whose retry count is no whole number of 0 or more. */
  static void validate(SparkSession spark, ResolvedGraph graph) {
    graph.graph().datasets().values().stream().filter(d -> d.type().isTable()).forEach(table -> of(spark, table));
  }

  /** Whether a failure may pass on another try. */
  static boolean retryable(Exception failure) {
    return !(failure instanceof SluiceException sluice) || ErrorClass.FLOW_FAILED.name().equals(sluice.errorClass());
  }

  /** How long to wait before retry number {@code retry} (1 for the first). */
  static Duration backoff(int retry) {
    Duration wait = Duration.ofSeconds(1L << Math.min(retry - 1, 5));
    return wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait;
  }
}
