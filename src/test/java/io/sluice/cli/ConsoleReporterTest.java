package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventType;
import io.sluice.eventlog.PipelineEvent;
import io.sluice.testsupport.SharedSpark;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A continuous update's status line: on a terminal one line redrawn in place, wiped before any
 * other line; to a file or a pipe a plain line in each tick that printed nothing else.
 */
class ConsoleReporterTest {
  private static PipelineEvent batch(long rows) {
    return new PipelineEvent("id", 1, "update", Optional.of("orders"), Optional.of("orders"), Optional.of(0L), Instant.now(),
        EventLevel.METRICS, EventType.FLOW_PROGRESS, "batch 0: " + rows + " rows written", Map.of("num_output_rows", rows),
        Optional.empty());
  }

  @Test
  void onATerminalTheStatusLineIsRedrawnAndWipedBeforeOtherLines() throws Exception {
    StringWriter text = new StringWriter();
    try (ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), SharedSpark.session().sparkContext(),
        Duration.ofSeconds(60), ConsoleReporter.StatusLine.REDRAWN)) {
      reporter.onEvent(batch(1234));
      Thread.sleep(1300);
      reporter.onEvent(batch(1));
    }
    String out = text.toString();
    assertTrue(out.contains("\rrunning continuously for 1 s: 1,234 rows written, last at "), out);
    assertTrue(out.contains("; Ctrl-C stops\u001b[K\r\u001b[K  orders"), "wiped before the next line: " + out);
    assertTrue(out.endsWith("\n") || out.endsWith("\r\u001b[K"), "nothing of the status line left at the end: " + out);
  }

  @Test
  void toAFileTheStatusIsALineInEachQuietTick() throws Exception {
    StringWriter text = new StringWriter();
    try (ConsoleReporter reporter = new ConsoleReporter(new PrintWriter(text), SharedSpark.session().sparkContext(),
        Duration.ofMillis(300), ConsoleReporter.StatusLine.LINES)) {
      reporter.onEvent(batch(5));
      Thread.sleep(1000);
    }
    String out = text.toString();
    assertTrue(out.contains("  running continuously for 0 s: 5 rows written, last at "), out);
    assertEquals(-1, out.indexOf('\r'), "lines only: " + out);
  }
}
