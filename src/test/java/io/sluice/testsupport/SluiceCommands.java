package io.sluice.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How a test gives {@code sluice} commands on a pipeline folder, and reads tables back
 * through {@code sluice query --format json}: as a separate process ({@code bin/sluice}, in
 * the end-to-end tests) or in the test's JVM on its shared Spark session.
 */
public abstract class SluiceCommands {
  /** Runs {@code sluice ARGS} on the pipeline folder {@code dir} and waits for it. */
  public abstract CommandResult run(Path dir, String... args);

  /** Runs and insists on exit 0. */
  public CommandResult ok(Path dir, String... args) {
    CommandResult result = run(dir, args);
    assertEquals(0, result.exit(), () -> "expected success: " + result);
    return result;
  }

  /** Asserts a failed command: exit != 0, one clear line on stderr, no stack trace. */
  public CommandResult failsCleanly(Path dir, String... args) {
    CommandResult result = run(dir, args);
    assertTrue(result.exit() != 0, () -> "expected a failure: " + result);
    assertTrue(!result.hasStackTrace(), () -> "expected no stack trace without --verbose: " + result);
    assertEquals(1, result.errorLines().size(), () -> "expected one clear line on stderr: " + result);
    return result;
  }

  /** {@code sluice query --format json SQL}: the rows, one JSON object each. */
  public List<JsonNode> query(Path dir, String sql) {
    return JsonRows.parseLines(ok(dir, "query", "--format", "json", sql).stdout());
  }

  /**
   * Several queries in one command (a process costs 10-20 s): each named SELECT becomes
   * {@code SELECT name, to_json(struct(*)) FROM (sql)}, all joined with UNION ALL. Returns
   * the rows of each query by name (every name present, maybe with no rows).
   */
  public Map<String, List<JsonNode>> queryAll(Path dir, Map<String, String> queries) {
    String sql = queries.entrySet().stream()
        .map(q -> "SELECT '" + q.getKey() + "' AS q, to_json(struct(*)) AS j FROM (" + q.getValue() + ")")
        .collect(Collectors.joining(" UNION ALL "));
    Map<String, List<JsonNode>> result = new LinkedHashMap<>();
    queries.keySet().forEach(name -> result.put(name, new ArrayList<>()));
    for (JsonNode row : query(dir, sql)) {
      try {
        result.get(row.get("q").asText()).add(JsonRows.JSON.readTree(row.get("j").asText()));
      } catch (IOException e) {
        throw new AssertionError("bad JSON in " + row, e);
      }
    }
    return result;
  }

  /** {@code SELECT * FROM t} for each table, in one command. */
  public Map<String, List<JsonNode>> tables(Path dir, String... tables) {
    Map<String, String> queries = new LinkedHashMap<>();
    for (String table : tables) {
      queries.put(table, "SELECT * FROM " + table);
    }
    return queryAll(dir, queries);
  }
}
