package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

/**
 * {@code sluice test} on the shared session: every example's own tests pass (the replace-using
 * example's as a process too, in {@code TestCommandE2E}), a mistake planted in the AUTO CDC
 * example's SQL fails them with a diff a person reads, and a test file that cannot run is
 * refused before anything runs.
 */
class TestCommandTest {
  @TempDir Path dir;

  @Test
  void theExamplesTestsPassAndLeaveThePipelinesStorageAlone() {
    PipelineFolder.copyOf(AutoCdcExampleTest.EXAMPLE, dir);
    CommandResult result = IN_PROCESS.ok(dir, "test");
    assertTrue(result.stdout().contains("PASS  a late update does not undo a delete  ("), result::toString);
    assertTrue(result.stdout().contains("PASS  a key updated twice in one batch keeps its newest row  ("), result::toString);
    assertTrue(result.stdout().contains("PASS  a change row that does not parse fails the update and changes nothing  ("), result::toString);
    assertTrue(result.stdout().endsWith("3 tests: 3 passed, 0 failed\n"), result::toString);
    assertFalse(Files.exists(dir.resolve(".sluice")), "the pipeline's storage is not touched");

    CommandResult dryRun = IN_PROCESS.ok(dir, "dry-run");
    assertTrue(dryRun.stdout().endsWith("3 tests in tests/: each gives rows to sources the pipeline reads and checks what it defines\n"),
        dryRun::toString);
  }

  /** The Kafka example's tests need no broker: in a test its topics are tables. */
  @ParameterizedTest
  @ValueSource(strings = {"quickstart", "snapshot-cdc", "kafka"})
  void eachExamplesTestsPass(String example) {
    PipelineFolder.copyOf(Path.of("examples", example).toAbsolutePath(), dir);
    CommandResult result = IN_PROCESS.ok(dir, "test");
    long passed = result.stdout().lines().filter(l -> l.startsWith("PASS  ")).count();
    assertTrue(passed >= 1, result::toString);
    assertTrue(result.stdout().endsWith(passed + (passed == 1 ? " test: " : " tests: ") + passed + " passed, 0 failed\n"), result::toString);
    assertFalse(Files.exists(dir.resolve(".sluice")), "the example's own storage is not touched");
  }

  @Test
  void aNewPipelineComesWithATestThatPasses() {
    Path shop = dir.resolve("shop");
    CommandResult init = IN_PROCESS.execute("init", shop.toString());
    assertEquals(0, init.exit(), init::toString);
    CommandResult result = IN_PROCESS.ok(shop, "test");
    assertTrue(result.stdout().contains("PASS  invalid orders are dropped and revenue sums the rest  ("), result::toString);
    assertTrue(result.stdout().endsWith("1 test: 1 passed, 0 failed\n"), result::toString);
  }

  @Test
  void aMissingApplyAsDeleteFailsWithTheRowsThatDiffer() throws Exception {
    PipelineFolder.copyOf(AutoCdcExampleTest.EXAMPLE, dir);
    Path sql = dir.resolve("transformations/users.sql");
    Files.writeString(sql, Files.readString(sql).replaceFirst("APPLY AS DELETE WHEN operation = \"DELETE\"\n", ""));
    Path report = dir.resolve("reports/tests.xml");
    CommandResult result = IN_PROCESS.run(dir, "test", "--only", "a late update does not undo a delete", "--junit-xml", report.toString());
    assertEquals(1, result.exit(), result::toString);
    String out = result.stdout();
    assertTrue(out.contains("FAIL  a late update does not undo a delete  ("), out);
    assertTrue(out.contains("tests/users.yml:3:5"), out);
    assertTrue(out.contains("update 2, users_scd1 (tests/users.yml:19:23):\n"), out);
    assertTrue(out.contains("compared on userId, name\n"), out);
    assertTrue(out.contains("unexpected (found, not expected):\n        userId | name\n        ------ | ----\n        1      | NULL\n"), out);
    assertTrue(out.contains("(its files are kept in "), out);
    assertTrue(out.endsWith("1 test: 0 passed, 1 failed\n"), out);

    // The same outcome as JUnit XML, as a CI system reads it.
    Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getDocumentElement();
    assertEquals("testsuite", suite.getTagName());
    assertEquals("auto_cdc", suite.getAttribute("name"));
    assertEquals("1", suite.getAttribute("tests"));
    assertEquals("1", suite.getAttribute("failures"));
    Element testcase = (Element) suite.getElementsByTagName("testcase").item(0);
    assertEquals("a late update does not undo a delete", testcase.getAttribute("name"));
    assertEquals("tests/users.yml:3:5", testcase.getAttribute("file"));
    Element failure = (Element) testcase.getElementsByTagName("failure").item(0);
    assertEquals("update 2, users_scd1 (tests/users.yml:19:23):", failure.getAttribute("message").stripTrailing());
    assertTrue(failure.getTextContent().contains("unexpected (found, not expected):"), failure.getTextContent());
  }

  @Test
  void aTestFileThatCannotRunIsRefusedBeforeAnyTestRuns() throws IOException {
    PipelineFolder.copyOf(AutoCdcExampleTest.EXAMPLE, dir);
    Files.writeString(dir.resolve("tests/more.yml"), """
        tests:
          - name: a misspelt source
            updates:
              - given:
                  json files data/user:
                    - {userId: 1}
        """);
    CommandResult unknownSource = IN_PROCESS.failsCleanly(dir, "test");
    assertEquals(2, unknownSource.exit());
    assertTrue(unknownSource.stderr().startsWith("tests/more.yml:5:11: the pipeline reads no source 'json files data/user';"
        + " it reads json files data/users [TEST_SOURCE_UNKNOWN]"), unknownSource::toString);
    assertFalse(unknownSource.stdout().contains("PASS"), "no test ran");

    Files.writeString(dir.resolve("tests/more.yml"), "tests:\n  - name: a field\n    updates:\n      - given:\n"
        + "          json files data/users:\n            - {userId: 1, mail: a@b.c}\n");
    CommandResult unknownField = IN_PROCESS.failsCleanly(dir, "test");
    assertEquals(2, unknownField.exit());
    assertTrue(unknownField.stderr().startsWith("tests/more.yml:5:11: row 1 of 'json files data/users' has a field 'mail' that its"
        + " files do not have; they have userId, name, city, operation, sequenceNum [TEST_FIELD_UNKNOWN]"), unknownField::toString);

    Files.writeString(dir.resolve("tests/more.yml"), "tests:\n  - name: gone\n    updates:\n      - expect:\n          users_scd3: {empty: true}\n");
    CommandResult unknownDataset = IN_PROCESS.failsCleanly(dir, "test");
    assertEquals(2, unknownDataset.exit());
    assertTrue(unknownDataset.stderr().startsWith("tests/more.yml:5:23: the pipeline defines no dataset 'users_scd3'; it defines"
        + " users_cdc, users_changes, users_scd1, users_scd2 [TEST_DATASET_UNKNOWN]"), unknownDataset::toString);
    // A dry run refuses it too; the graph is drawn, with a warning.
    CommandResult dryRun = IN_PROCESS.failsCleanly(dir, "dry-run");
    assertTrue(dryRun.stderr().startsWith("tests/more.yml:5:23: the pipeline defines no dataset 'users_scd3';"), dryRun::toString);
    CommandResult graph = IN_PROCESS.ok(dir, "graph", "--format", "mermaid");
    assertTrue(graph.stderr().contains("warning: tests/more.yml:5:23: the pipeline defines no dataset 'users_scd3';"), graph::toString);

    CommandResult noSuchTest = IN_PROCESS.run(dir, "test", "--only", "nope");
    assertEquals(2, noSuchTest.exit(), noSuchTest::toString);
    assertTrue(noSuchTest.stderr().startsWith("no test named 'nope'; the tests are: 'gone', 'a late update does not undo a delete',"), noSuchTest::toString);
  }
}
