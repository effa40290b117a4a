package io.sluice.cli;

import static io.sluice.testsupport.JsonRows.rows;
import static io.sluice.testsupport.JsonRows.sorted;
import static io.sluice.testsupport.JsonRows.text;
import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.Events;
import io.sluice.testsupport.JsonRows;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expectations of the three kinds in one update (SEMANTICS §6): warn keeps and counts,
 * DROP ROW removes and counts, FAIL UPDATE fails the flow naming the expectation and commits
 * nothing of its batch, while a flow that does not depend on it completes and one that reads
 * it is skipped (§1.5). The figures come from the event log's flow_progress METRICS events.
 * After the user relaxes the expectation, a rerun processes the failed batch in full, once.
 */
class ExpectationOutcomesTest {
  @TempDir Path dir;

  @Test
  void warnDropAndFailExpectationsWithTheirMetricsThenAFixedRerun() {
    PipelineFolder.create(dir, "sensors").inItsOwnDatabase()
        .sql("readings.sql", """
            CREATE OR REFRESH STREAMING TABLE readings_raw
            AS SELECT * FROM STREAM read_files('landing', format => 'json',
              schema => 'sensor STRING, value INT, unit STRING');

            CREATE OR REFRESH STREAMING TABLE readings (
              CONSTRAINT known_unit EXPECT (unit IN ('C', 'F')),
              CONSTRAINT has_value EXPECT (value IS NOT NULL) ON VIOLATION DROP ROW
            )
            AS SELECT * FROM STREAM(readings_raw);
            """)
        .sql("strict.sql", """
            CREATE OR REFRESH STREAMING TABLE readings_strict (
              CONSTRAINT plausible_value EXPECT (value < 100) ON VIOLATION FAIL UPDATE
            )
            AS SELECT * FROM STREAM(readings_raw) WHERE value IS NOT NULL;

            CREATE OR REFRESH MATERIALIZED VIEW strict_summary
            AS SELECT count(*) AS readings, max(value) AS highest FROM readings_strict;
            """)
        .json("landing/r1.json",
            "{\"sensor\": \"s1\", \"value\": 20, \"unit\": \"C\"}",
            "{\"sensor\": \"s2\", \"value\": 68, \"unit\": \"F\"}",
            "{\"sensor\": \"s3\", \"value\": 21, \"unit\": \"K\"}",
            "{\"sensor\": \"s4\", \"value\": null, \"unit\": \"C\"}",
            "{\"sensor\": \"s5\", \"value\": 150, \"unit\": \"C\"}");

    CommandResult run = IN_PROCESS.run(dir, "run");
    assertTrue(run.exit() != 0, () -> "a FAIL UPDATE expectation that fails fails the run: " + run);
    assertTrue(run.stderr().contains("plausible_value"), () -> "the error names the expectation: " + run);
    assertTrue(run.stderr().contains("s5"), () -> "the error shows the offending row: " + run);

    Map<String, String> queries = new LinkedHashMap<>();
    Events.addQueries(queries);
    queries.put("raw", "SELECT * FROM readings_raw");
    queries.put("readings", "SELECT * FROM readings");
    queries.put("strict", "SELECT * FROM readings_strict");
    queries.put("metrics", """
        SELECT origin.flow_name AS flow, origin.batch_id AS batch,
          CAST(get_json_object(details, '$.num_input_rows') AS BIGINT) AS input,
          CAST(get_json_object(details, '$.num_output_rows') AS BIGINT) AS output,
          CAST(get_json_object(details, '$.data_quality.dropped_records') AS BIGINT) AS dropped,
          from_json(get_json_object(details, '$.data_quality.expectations'),
            'array<struct<name: string, dataset: string, passed_records: bigint, failed_records: bigint>>') AS expectations
        FROM event_log WHERE event_type = 'flow_progress' AND level = 'METRICS'""");
    queries.put("failures", """
        SELECT origin.flow_name AS flow, get_json_object(details, '$.state') AS state, error
        FROM event_log WHERE event_type = 'flow_progress' AND level = 'ERROR'""");
    Map<String, List<JsonNode>> t = IN_PROCESS.queryAll(dir, queries);

    assertEquals(5, t.get("raw").size());
    assertEquals(sorted("s1|20|C", "s2|68|F", "s3|21|K", "s5|150|C"), rows(t.get("readings"), "sensor", "value", "unit"),
        "warn keeps s3 (unit K), DROP ROW removes s4 (no value)");
    assertEquals(List.of(), rows(t.get("strict"), "sensor", "value", "unit"),
        "nothing of the failed batch is committed");

    List<JsonNode> readings = t.get("metrics").stream().filter(m -> text(m.get("flow")).equals("readings")).toList();
    assertEquals(1, readings.size(), () -> "one batch of readings: " + t.get("metrics"));
    JsonNode batch = readings.get(0);
    assertEquals(5, batch.get("input").asLong());
    assertEquals(4, batch.get("output").asLong());
    assertEquals(1, batch.get("dropped").asLong());
    Map<String, String> expectations = new LinkedHashMap<>();
    for (JsonNode e : batch.get("expectations")) {
      expectations.put(e.get("name").asText(),
          e.get("dataset").asText() + " passed " + e.get("passed_records").asLong() + " failed " + e.get("failed_records").asLong());
    }
    assertEquals(Map.of("known_unit", "readings passed 4 failed 1", "has_value", "readings passed 4 failed 1"), expectations);

    assertEquals(List.of(), t.get("metrics").stream().filter(m -> text(m.get("flow")).equals("readings_strict")).toList(),
        "no batch of readings_strict completed");
    List<JsonNode> failures = t.get("failures");
    assertEquals(List.of("readings_strict|FAILED"), rows(failures, "flow", "state"), failures.toString());
    assertTrue(text(failures.get(0).get("error")).contains("plausible_value"), failures.toString());
    assertEquals(1, t.get("metrics").stream().filter(m -> text(m.get("flow")).equals("readings_raw")).count(),
        () -> t.get("metrics").stream().map(JsonNode::toString).collect(Collectors.joining("\n")));

    Events events = Events.from(t);
    String failed = events.update(-1);
    assertEquals(Optional.of("COMPLETED"), events.finalState(failed, "readings"), "an independent flow completes\n" + events);
    assertEquals(Optional.of("SKIPPED"), events.finalState(failed, "strict_summary"),
        "a flow reading the failed table is skipped (§1.5)\n" + events);

    // The user relaxes the expectation and reruns: the batch that failed is processed in
    // full, once; nothing else is read again.
    PipelineFolder.at(dir).sql("strict.sql", """
        CREATE OR REFRESH STREAMING TABLE readings_strict (
          CONSTRAINT plausible_value EXPECT (value < 1000) ON VIOLATION FAIL UPDATE
        )
        AS SELECT * FROM STREAM(readings_raw) WHERE value IS NOT NULL;

        CREATE OR REFRESH MATERIALIZED VIEW strict_summary
        AS SELECT count(*) AS readings, max(value) AS highest FROM readings_strict;
        """);
    IN_PROCESS.ok(dir, "run");
    Map<String, List<JsonNode>> after = IN_PROCESS.tables(dir, "readings_raw", "readings", "readings_strict", "strict_summary");
    assertEquals(5, after.get("readings_raw").size(), "no file is read twice");
    assertEquals(sorted("s1|20|C", "s2|68|F", "s3|21|K", "s5|150|C"), rows(after.get("readings"), "sensor", "value", "unit"));
    assertEquals(sorted("s1|20|C", "s2|68|F", "s3|21|K", "s5|150|C"),
        rows(after.get("readings_strict"), "sensor", "value", "unit"), "the failed batch, in full, once");
    assertEquals(List.of("4|150"), rows(after.get("strict_summary"), "readings", "highest"));

    // Checked last so that the checks above still run when this fails.
    assertTrue(!run.hasStackTrace(), () -> "no stack trace without --verbose: " + run);
    assertEquals(1, run.errorLines().size(), () -> "one clear line on stderr: " + run);
  }
}
