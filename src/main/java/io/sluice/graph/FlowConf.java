package io.sluice.graph;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;

/** Runs code with a flow's SQL settings ({@code SET} in its file) in force, then restores the session's. */
public final class FlowConf {
  private FlowConf() {}

  public static <T> T withSqlConf(SparkSession spark, Map<String, String> conf, Supplier<T> body) {
    if (conf.isEmpty()) {
      return body.get();
    }
    RuntimeConfig runtime = spark.conf();
    Map<String, String> previous = new HashMap<>();
    conf.forEach((key, value) -> {
      previous.put(key, runtime.getOption(key).getOrElse(() -> null));
      runtime.set(key, value);
    });
    try {
      return body.get();
    } finally {
      previous.forEach((key, value) -> {
        if (value == null) {
          runtime.unset(key);
        } else {
          runtime.set(key, value);
        }
      });
    }
  }
}
