package io.sluice.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.eventlog.FlowState;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading test files, no Spark: what a test file says, and each mistake refused at its line and column. */
class TestFilesTest {
  @TempDir Path dir;

  @Test
  void aTestFileGivesUpdatesOfRowsAndChecks() throws IOException {
    write("users.yml", """
        tests:
          - name: two updates
            updates:
              - given:
                  json files data/users:
                    - {id: 1, name: Ann, score: 1.50, ok: true, gone: null, city: on}
                expect:
                  users: {rows: [{id: 1}], ordered: true}
                  history: {count: 2}
              - expect:
                  users: {empty: true}
                  no_dupes: {sql: SELECT 1 WHERE false}
        """);
    List<PipelineTestCase> tests = TestFiles.load(dir);
    assertEquals(1, tests.size());
    PipelineTestCase test = tests.get(0);
    assertEquals("two updates", test.name());
    assertEquals("tests/users.yml:2:5", test.origin().toString());
    TestUpdate first = test.updates().get(0);
    assertEquals("json files data/users", first.given().get(0).source());
    Map<String, Object> row = first.given().get(0).rows().get(0);
    assertEquals(new BigDecimal("1"), row.get("id"));
    assertEquals(new BigDecimal("1.50"), row.get("score"));
    assertEquals(true, row.get("ok"));
    assertTrue(row.containsKey("gone") && row.get("gone") == null);
    assertEquals("Ann", row.get("name"));
    assertEquals("on", row.get("city"), "YAML 1.1's on stays a word");
    assertEquals(new TableExpectation.Rows("users", first.expectations().get(0).origin(), List.of(Map.of("id", new BigDecimal("1"))), true),
        first.expectations().get(0));
    assertEquals(2, ((TableExpectation.Count) first.expectations().get(1)).count());
    TestUpdate second = test.updates().get(1);
    assertEquals(2, second.number());
    assertEquals(0, ((TableExpectation.Count) second.expectations().get(0)).count());
    assertEquals("SELECT 1 WHERE false", ((TableExpectation.NoRows) second.expectations().get(1)).sql());
  }

  @Test
  void anUpdateChecksExpectationsStatesAndVersions() throws IOException {
    write("t.yml", """
        tests:
          - name: a row that does not parse
            updates:
              - expect:
                  users_cdc: {state: FAILED, error: EXPECTATION_VIOLATION}
                  users_scd1: {unchanged: true}
                  expectations:
                    parsed: {failed: 1}
                    users_cdc.other: {failed: 0}
        """);
    List<TableExpectation> checks = TestFiles.load(dir).get(0).updates().get(0).expectations();
    assertEquals(List.of(
        new TableExpectation.State("users_cdc", checks.get(0).origin(), FlowState.FAILED, Optional.of("EXPECTATION_VIOLATION")),
        new TableExpectation.Unchanged("users_scd1", checks.get(1).origin()),
        new TableExpectation.FailedRows("parsed", checks.get(2).origin(), 1),
        new TableExpectation.FailedRows("users_cdc.other", checks.get(3).origin(), 0)), checks);
    assertEquals("tests/t.yml:5:22", checks.get(0).origin().toString());
    assertEquals("tests/t.yml:8:21", checks.get(2).origin().toString());
  }

  @Test
  void noTestsFolderIsNoTests() {
    assertEquals(List.of(), TestFiles.load(dir));
  }

  @Test
  void mistakesAreRefusedAtTheirLineAndColumn() throws IOException {
    refused("tests: [", "tests/t.yml:1:", "not valid YAML");
    refused("test: []", "tests/t.yml:1:1: unknown field 'test' in the file; it takes tests", "");
    refused("tests:\n  - name: a\n    update: []\n", "tests/t.yml:3:5: unknown field 'update' in a test; it takes name, updates", "");
    refused("tests:\n  - updates: [{expect: {t: {count: 1}}}]\n", "tests/t.yml:2:5: a test lacks 'name'", "");
    refused("tests:\n  - name: a\n    updates: []\n", "tests/t.yml:2:5: test 'a' has no updates", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          t: {count: 1, empty: true}\n",
        "tests/t.yml:5:14: the check of 't' should give one of rows, count, empty, sql, state or unchanged; it gives count, empty", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          t: {state: BROKEN}\n",
        "tests/t.yml:5:22: 'state' should be one of COMPLETED, FAILED, SKIPPED, EXCLUDED, STOPPED", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          t: {count: 1, error: X}\n",
        "tests/t.yml:5:32: 'error' goes with 'state: FAILED'", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          expectations: {parsed: {failed: many}}\n",
        "tests/t.yml:5:43: 'failed' should be a whole number", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          t: {rows: [{id: 1, city: Lima}, {id: 2}]}\n",
        "tests/t.yml:5:14: the rows expected of 't' name different columns: row 1 names id, city, row 2 names id;"
        + " every row names the same columns (null for a NULL)", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          t: {count: -1}\n", "tests/t.yml:5:22: 'count' should be a whole number", "");
    refused("tests:\n  - name: a\n    updates:\n      - expect:\n          t: {rows: [{id: [1, 2]}]}\n",
        "tests/t.yml:5:27: the value of 'id' should be a plain value", "");
    refused("tests:\n  - name: a\n    updates:\n      - given:\n          json files x: {id: 1}\n", "tests/t.yml:5:25: rows should be a list", "");
  }

  private void refused(String yaml, String start, String contains) throws IOException {
    write("t.yml", yaml);
    SluiceException e = assertThrows(SluiceException.class, () -> TestFiles.load(dir), yaml);
    assertEquals("TEST_FILE_INVALID", e.errorClass());
    assertTrue(e.userMessage().startsWith(start) && e.userMessage().contains(contains), e.userMessage());
  }

  private void write(String name, String text) throws IOException {
    Files.createDirectories(dir.resolve("tests"));
    Files.writeString(dir.resolve("tests").resolve(name), text);
  }
}
