package io.sluice.cli;

import io.sluice.SluiceException;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.Storage;
import io.sluice.testing.JUnitReport;
import io.sluice.testing.PipelineTestCase;
import io.sluice.testing.PipelineTestRunner;
import io.sluice.testing.ScratchPipeline;
import io.sluice.testing.TestFiles;
import io.sluice.testing.TestOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    return new PipelineSpec(scratch, scratch.resolve("spark-pipeline.yml"), spec.name(),
        Storage.local(scratch.resolve("session")), Optional.empty(), Optional.empty(), spec.configuration(), List.of());
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    int failed = 0;
    try {
      List<PipelineTestCase> tests = TestFiles.load(spec.root());
      if (only != null) {
        List<PipelineTestCase> named = tests.stream().filter(t -> t.name().equals(only)).toList();
        if (named.isEmpty()) {
          err().println("no test named '" + only + "'; the tests are: "
              + (tests.isEmpty() ? "none" : String.join(", ", tests.stream().map(t -> "'" + t.name() + "'").toList())));
          return TEST_FILE_ERROR;
        }
        tests = named;
      }
      if (tests.isEmpty()) {
        out().println("no tests in " + spec.root().resolve(TestFiles.FOLDER) + " (files *.yml holding 'tests:')");
        return 0;
      }
      PipelineTestRunner runner = PipelineTestRunner.validated(spark, spec, scratch, tests);
      List<TestOutcome> outcomes = new ArrayList<>();
      for (PipelineTestCase test : tests) {
        TestOutcome outcome = runner.run(test);
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
