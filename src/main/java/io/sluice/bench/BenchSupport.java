package io.sluice.bench;

import io.sluice.graph.SparkErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** What the benchmarks share: timing, rates, appends and scratch files. */
final class BenchSupport {
  private BenchSupport() {}

  /** Wall-clock seconds {@code work} takes. */
  static double time(Runnable work) {
    long start = System.nanoTime();
    work.run();
    return (System.nanoTime() - start) / 1e9;
  }

  /** Seconds and rows per second, e.g. {@code 1.2 (83k/s)} or {@code 9.2 (217/s)}: small batches make small rates. */
  static String rate(double seconds, long rows) {
    double perSecond = rows / seconds;
    return perSecond >= 10_000
        ? String.format(Locale.ROOT, "%.1f (%.0fk/s)", seconds, perSecond / 1000)
        : String.format(Locale.ROOT, "%.1f (%.0f/s)", seconds, perSecond);
  }

  static void append(Dataset<Row> rows, String table) {
    try {
      rows.writeTo(table).append();
    } catch (Exception e) {
      throw SparkErrors.unchecked(e);
    }
  }

  static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
