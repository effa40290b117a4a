package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.graph.DatasetDefinition;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;

/**
 * How often a continuous update starts a flow (SEMANTICS §10.1): the target's {@code
 * pipelines.trigger.interval}, else the spec's {@code configuration}, else 5 seconds. Written
 * as Databricks writes it: {@code '10 seconds'}, {@code '1 minute'}, {@code '500 milliseconds'}
 * (also {@code 10s}, {@code 1 min}, {@code 2 h}, {@code 1 day}).
 */
record TriggerInterval(Duration duration) {
  static final String PROPERTY = "pipelines.trigger.interval";
  static final Duration DEFAULT = Duration.ofSeconds(5);
  private static final String EXPECTED = "it takes a duration above zero such as '10 seconds', '1 minute' or '500 milliseconds'";
  private static final Pattern FORM = Pattern.compile("(?:interval\\s+)?(\\d+(?:\\.\\d+)?)\\s*([a-z]+)");
  private static final Map<String, Duration> UNITS = Map.ofEntries(
      Map.entry("ms", Duration.ofMillis(1)), Map.entry("millisecond", Duration.ofMillis(1)),
      Map.entry("s", Duration.ofSeconds(1)), Map.entry("sec", Duration.ofSeconds(1)), Map.entry("second", Duration.ofSeconds(1)),
      Map.entry("m", Duration.ofMinutes(1)), Map.entry("min", Duration.ofMinutes(1)), Map.entry("minute", Duration.ofMinutes(1)),
      Map.entry("h", Duration.ofHours(1)), Map.entry("hour", Duration.ofHours(1)),
      Map.entry("d", Duration.ofDays(1)), Map.entry("day", Duration.ofDays(1)));

  static TriggerInterval of(SparkSession spark, DatasetDefinition target) {
    String property = target.properties().get(PROPERTY);
    if (property != null) {
      return new TriggerInterval(parse(property).orElseThrow(() -> new SluiceException(ErrorClass.INVALID_TRIGGER_INTERVAL,
          target.origin(), PROPERTY + " of '" + target.name() + "' is '" + property + "'; " + EXPECTED)));
    }
    String configured = spark.conf().getOption(PROPERTY).getOrElse(() -> null);
    if (configured == null) {
      return new TriggerInterval(DEFAULT);
    }
    return new TriggerInterval(parse(configured).orElseThrow(() -> new SluiceException(ErrorClass.INVALID_TRIGGER_INTERVAL,
        "the spec's configuration sets " + PROPERTY + " to '" + configured + "'; " + EXPECTED)));
  }

  /** The duration {@code text} writes, if it writes one above zero. */
  static Optional<Duration> parse(String text) {
    Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return Optional.empty();
    }
    String unit = m.group(2);
    Duration one = UNITS.get(unit);
    if (one == null && unit.endsWith("s")) {
      one = UNITS.get(unit.substring(0, unit.length() - 1));
    }
    if (one == null) {
      return Optional.empty();
    }
    long millis = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(one.toMillis())).longValue();
    return millis > 0 ? Optional.of(Duration.ofMillis(millis)) : Optional.empty();
  }
}
