package io.sluice.e2e;

import io.sluice.testsupport.PipelineFolder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The crash tests' pipeline ({@link #SQL}: raw events from JSON files one file per batch, the
 * valid ones, and totals per kind) and its input: files of two events each, of which every fifth
 * file's second is invalid. It keeps what each table must hold after the files landed so far.
 */
final class EventFiles {
  static final String SQL = """
      CREATE OR REFRESH STREAMING TABLE events_raw
      AS SELECT *, _metadata.file_name AS file
      FROM STREAM read_files('landing', format => 'json',
        schema => 'id INT, kind STRING, n INT', maxFilesPerTrigger => '1');

      CREATE OR REFRESH STREAMING TABLE events_ok (
        CONSTRAINT positive EXPECT (n > 0) ON VIOLATION DROP ROW
      )
      AS SELECT id, kind, n FROM STREAM(events_raw);

      CREATE OR REFRESH MATERIALIZED VIEW totals REFRESH POLICY INCREMENTAL
      AS SELECT kind, count(*) AS events, sum(n) AS total FROM events_ok GROUP BY kind;
      """;

  private final PipelineFolder pipeline;
  private final List<String> raw = new ArrayList<>();
  private final List<String> ok = new ArrayList<>();
  private final Map<String, long[]> totals = new TreeMap<>();

  EventFiles(PipelineFolder pipeline) {
    this.pipeline = pipeline;
  }

  /** Lands files number {@code from} to {@code to} in {@code landing/}. */
  void land(int from, int to) {
    for (int i = from; i <= to; i++) {
      String file = String.format("events-%02d.json", i);
      int bValue = i % 5 == 0 ? -1 : i;
      pipeline.json("landing/" + file,
          "{\"id\": " + (2 * i - 1) + ", \"kind\": \"a\", \"n\": " + i + "}",
          "{\"id\": " + (2 * i) + ", \"kind\": \"b\", \"n\": " + bValue + "}");
      raw.add((2 * i - 1) + "|a|" + i + "|" + file);
      raw.add((2 * i) + "|b|" + bValue + "|" + file);
      ok.add((2 * i - 1) + "|a|" + i);
      count("a", i);
      if (bValue > 0) {
        ok.add((2 * i) + "|b|" + bValue);
        count("b", bValue);
      }
    }
  }

  private void count(String kind, int n) {
    long[] total = totals.computeIfAbsent(kind, k -> new long[2]);
    total[0]++;
    total[1] += n;
  }

  /** events_raw's rows as id|kind|n|file, sorted. */
  List<String> raw() {
    return raw.stream().sorted().toList();
  }

  /** events_ok's rows as id|kind|n, sorted. */
  List<String> ok() {
    return ok.stream().sorted().toList();
  }

  /** totals' rows as kind|events|total, sorted. */
  List<String> totals() {
    return totals.entrySet().stream().map(e -> e.getKey() + "|" + e.getValue()[0] + "|" + e.getValue()[1]).sorted().toList();
  }
}
