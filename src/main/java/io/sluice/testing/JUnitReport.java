package io.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The outcomes of a run of a pipeline's tests as JUnit XML (one {@code testsuite}, a
 * {@code testcase} per test, a {@code failure} with what differed), the report CI systems read.
 */
public final class JUnitReport {
  private JUnitReport() {}

  /** Writes {@code outcomes} of the pipeline {@code suite} to {@code file}. */
  public static void write(Path file, String suite, List<TestOutcome> outcomes) {
    long failures = outcomes.stream().filter(o -> !o.passed()).count();
    double seconds = outcomes.stream().mapToLong(o -> o.took().toMillis()).sum() / 1000.0;
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append(String.format(Locale.ROOT, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"%.3f\">%n",
        escape(suite), outcomes.size(), failures, seconds));
    for (TestOutcome outcome : outcomes) {
      xml.append(String.format(Locale.ROOT, "  <testcase classname=\"%s\" name=\"%s\" file=\"%s\" time=\"%.3f\"",
          escape(suite), escape(outcome.name()), escape(outcome.origin().toString()), outcome.took().toMillis() / 1000.0));
      if (outcome.passed()) {
        xml.append("/>\n");
      } else {
        String text = String.join("\n", outcome.failures());
        xml.append(">\n    <failure message=\"").append(escape(outcome.failures().get(0).lines().findFirst().orElse("")))
            .append("\">").append(escape(text)).append("</failure>\n  </testcase>\n");
      }
    }
    xml.append("</testsuite>\n");
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, xml.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static String escape(String text) {
    StringBuilder escaped = new StringBuilder();
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> escaped.append("&amp;");
        case '<' -> escaped.append("&lt;");
        case '>' -> escaped.append("&gt;");
        case '"' -> escaped.append("&quot;");
        default -> {
          if (c >= 0x20 || c == '\n' || c == '\t') {
            escaped.append(c);
          }
        }
      }
    }
    return escaped.toString();
  }
}
