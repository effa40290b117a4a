package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import org.apache.spark.sql.SparkSession;

/**
 * How many flows of an update may run at once (SEMANTICS §10.2): the spec's {@code
 * configuration} {@code pipelines.maxParallelFlows}, else {@link #DEFAULT}. Flows run at once
 * only when neither reads what the other writes.
 */
record FlowParallelism(int limit) {
  static final String SETTING = "pipelines.maxParallelFlows";
  static final int DEFAULT = 2;

  /** The update's limit; refuses, before anything runs, a value that is no whole number of 1 or more. */
  static FlowParallelism of(SparkSession spark) {
    String value = spark.conf().getOption(SETTING).getOrElse(() -> String.valueOf(DEFAULT));
    try {
      int limit = Integer.parseInt(value.trim());
      if (limit < 1) {
        throw new NumberFormatException();
      }
      return new FlowParallelism(limit);
    } catch (NumberFormatException e) {
      throw new SluiceException(ErrorClass.INVALID_CONFIGURATION, "the spec's configuration sets " + SETTING + " to '" + value
          + "'; it takes a whole number of flows, 1 or more");
    }
  }
}
