package io.sluice.cli;

import io.sluice.SluiceException;
import io.sluice.spec.PipelineSpec;
import io.sluice.testing.JUnitReport;
import io.sluice.testing.PipelineTestCase;
import io.sluice.testing.PipelineTestRunner;
import io.sluice.testing.ScratchPipeline;
import io.sluice.testing.TestFiles;
import io.sluice.testing.TestOutcome;
import io.sluice.testing.TestSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice test}: the pipeline's tests ({@code tests/*.yml}), each in a copy of the pipeline
 * with storage and a database of its own, in one Spark session. The pipeline's own storage is
 * left alone, so tests run beside an update.
 */
@Command(name = "test", description = "Run the pipeline's tests (tests/*.yml): rows given to its sources, update after update,"
    + " and the rows its tables must then hold.")
final class TestCommand extends FolderCommand {
  /** A test file that cannot run as written, or --only naming no test. */
  static final int TEST_FILE_ERROR = 2;
  private static final String CLEAR_LINE = "\u001b[K";

  @Option(names = "--only", paramLabel = "NAME", description = "Run only the test of this name.")
  String only;

  @Option(names = "--junit-xml", paramLabel = "FILE", description = "Also write the outcomes as JUnit XML, for CI systems.")
  Path junitXml;

  @Override
  boolean usesStorage() {
    return false;
  }

  /** Where the tests' copies of the pipeline, and the session's catalog, live. */
  private Path scratch;

  @Override
  PipelineSpec sessionSpec(PipelineSpec spec) {
    try {
      scratch = Files.createTempDirectory("sluice-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return TestSession.on(spec, scratch.resolve("session"));
  }

  /** The tests to run, read before Spark starts: a test file's mistake costs no session. */
  private List<PipelineTestCase> tests;

  @Override
  OptionalInt checkWithoutSpark(PipelineSpec spec) {
    try {
      tests = TestFiles.load(spec.root());
    } catch (SluiceException e) {
      fail(e, e.userMessage());
      return OptionalInt.of(TEST_FILE_ERROR);
    }
    if (only != null) {
      List<PipelineTestCase> named = tests.stream().filter(t -> t.name().equals(only)).toList();
      if (named.isEmpty()) {
        err().println("no test named '" + only + "'; the tests are: "
            + (tests.isEmpty() ? "none" : String.join(", ", tests.stream().map(t -> "'" + t.name() + "'").toList())));
        return OptionalInt.of(TEST_FILE_ERROR);
      }
      tests = named;
    }
    if (tests.isEmpty()) {
      out().println("no tests in " + spec.root().resolve(TestFiles.FOLDER) + " (files *.yml holding 'tests:')");
      return OptionalInt.of(0);
    }
    return OptionalInt.empty();
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    int failed = 0;
    try {
      PipelineTestRunner runner = PipelineTestRunner.validated(spark, spec, scratch, tests);
      List<TestOutcome> outcomes = new ArrayList<>();
      // On a terminal the test that runs is shown, then replaced by its outcome; a pipe gets outcomes only.
      boolean terminal = System.console() != null;
      for (PipelineTestCase test : tests) {
        if (terminal) {
          out().print("RUN   " + test.name() + " ...");
          out().flush();
        }
        TestOutcome outcome = runner.run(test);
        if (terminal) {
          out().print("\r" + CLEAR_LINE);
        }
        print(outcome);
        outcomes.add(outcome);
        failed += outcome.passed() ? 0 : 1;
      }
      if (junitXml != null) {
        JUnitReport.write(junitXml, spec.name(), outcomes);
      }
      out().println(tests.size() + (tests.size() == 1 ? " test: " : " tests: ") + (tests.size() - failed) + " passed, " + failed + " failed");
      out().flush();
      return failed == 0 ? 0 : FAILED;
    } catch (SluiceException e) {
      if (!e.errorClass().startsWith("TEST_")) {
        throw e;
      }
      fail(e, e.userMessage());
      return TEST_FILE_ERROR;
    } finally {
      if (failed == 0) {
        ScratchPipeline.deleteOnExit(scratch); // a failed test's folder is kept, to be looked at
      }
    }
  }

  private void print(TestOutcome outcome) {
    out().printf("%s  %s  (%.1f s)%n", outcome.passed() ? "PASS" : "FAIL", outcome.name(), outcome.took().toMillis() / 1000.0);
    if (!outcome.passed()) {
      out().println("      " + outcome.origin());
      for (String failure : outcome.failures()) {
        failure.lines().forEach(line -> out().println(("      " + line).stripTrailing()));
      }
      out().println("      (its files are kept in " + outcome.kept() + ": the pipeline, its tables under .sluice/warehouse, its event log)");
    }
    out().flush();
  }
}
