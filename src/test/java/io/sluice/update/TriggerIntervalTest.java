package io.sluice.update;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The durations {@code pipelines.trigger.interval} takes, as Databricks writes them, and those it refuses. */
class TriggerIntervalTest {
  @Test
  void readsTheWaysADurationIsWritten() {
    assertEquals(Optional.of(Duration.ofSeconds(10)), TriggerInterval.parse("10 seconds"));
    assertEquals(Optional.of(Duration.ofSeconds(1)), TriggerInterval.parse("1 second"));
    assertEquals(Optional.of(Duration.ofSeconds(5)), TriggerInterval.parse("5s"));
    assertEquals(Optional.of(Duration.ofMinutes(1)), TriggerInterval.parse(" 1 Minute "));
    assertEquals(Optional.of(Duration.ofMinutes(2)), TriggerInterval.parse("2 min"));
    assertEquals(Optional.of(Duration.ofMillis(500)), TriggerInterval.parse("500 milliseconds"));
    assertEquals(Optional.of(Duration.ofMillis(1500)), TriggerInterval.parse("1.5 seconds"));
    assertEquals(Optional.of(Duration.ofHours(2)), TriggerInterval.parse("interval 2 hours"));
    assertEquals(Optional.of(Duration.ofDays(1)), TriggerInterval.parse("1 day"));
  }

  @Test
  void refusesWhatIsNoDurationAboveZero() {
    for (String bad : new String[] {"fast", "10", "0 seconds", "-5 seconds", "10 parsecs", "", "seconds", "0.0001 s"}) {
      assertEquals(Optional.empty(), TriggerInterval.parse(bad), bad);
    }
  }
}
