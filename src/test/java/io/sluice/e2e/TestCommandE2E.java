package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code sluice test} as CI runs it: a process, its exit code and its JUnit XML; a test file's
 * mistake ends it with exit 2 before any test runs. The other examples' tests run in-process
 * ({@code TestCommandTest}): a process would only add its start to each.
 */
class TestCommandE2E {
  @TempDir Path tmp;

  @Test
  void anExamplesTestsPassAsCiRunsThem() throws Exception {
    Path dir = tmp.resolve("replace-using");
    PipelineFolder.copyOf(Path.of("examples", "replace-using").toAbsolutePath(), dir);
    Path report = tmp.resolve("replace-using-tests.xml");
    CommandResult result = Sluice.PROCESS.run(dir, "test", "--junit-xml", report.toString());
    assertEquals(0, result.exit(), result::toString);
    Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getDocumentElement();
    NodeList cases = suite.getElementsByTagName("testcase");
    assertEquals("0", suite.getAttribute("failures"), result::toString);
    assertTrue(cases.getLength() >= 2, "the example ships tests");
    assertEquals(cases.getLength(), result.stdout().lines().filter(l -> l.startsWith("PASS  ")).count(), result::toString);
    assertTrue(result.stdout().endsWith(cases.getLength() + " tests: " + cases.getLength() + " passed, 0 failed\n"), result::toString);
    assertTrue(!Files.exists(dir.resolve(".sluice")), "the example's own storage is not touched");
  }

  @Test
  void aTestFileThatDoesNotParseEndsWithExitTwo() throws Exception {
    Path dir = tmp.resolve("auto-cdc");
    PipelineFolder.copyOf(Path.of("examples/auto-cdc").toAbsolutePath(), dir); // its tests are never run: the file is refused first
    Files.writeString(dir.resolve("tests/broken.yml"), "tests:\n  - name: [unclosed\n");
    CommandResult result = Sluice.PROCESS.run(dir, "test");
    assertEquals(2, result.exit(), result::toString);
    assertTrue(result.stderr().startsWith("tests/broken.yml:3:1: not valid YAML"), result::toString);
    assertEquals("", result.stdout(), "no test ran");
  }
}
