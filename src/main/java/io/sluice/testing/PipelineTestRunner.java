package io.sluice.testing;

import io.sluice.SluiceException;
import io.sluice.common.SparkErrors;
import io.sluice.graph.ResolvedGraph;
import io.sluice.spec.PipelineSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * Runs the tests of a pipeline's test files ({@link TestFiles}) on the real engine, each as a
 * {@link PipelineTest}: update after update, its given rows written, then its checks. Unlike the
 * Java API, which stops at the first check that fails, it reports every failing check of the
 * update where the test failed.
 */
public final class PipelineTestRunner {
  private final SparkSession spark;
  private final TestablePipeline pipeline;
  private final Path scratch;
  private int started;

  private PipelineTestRunner(SparkSession spark, TestablePipeline pipeline, Path scratch) {
    this.spark = spark;
    this.pipeline = pipeline;
    this.scratch = scratch;
  }

  /**
   * A runner of {@code pipeline}'s {@code tests} in {@code spark}, with their folders under
   * {@code scratch}: resolves the pipeline (as a dry run, on a copy) and checks that every test
   * gives rows only to sources it reads, with fields they have, and checks only what it defines,
   * before any test runs.
   *
   * @throws SluiceException naming the test file's line and column
   */
  public static PipelineTestRunner validated(SparkSession spark, PipelineSpec pipeline, Path scratch, List<PipelineTestCase> tests) {
    makeTables(spark, tests);
    TestablePipeline resolved = TestablePipeline.resolve(spark, pipeline, scratch.resolve("resolve"));
    resolved.validate(tests);
    return new PipelineTestRunner(spark, resolved, scratch);
  }

  /**
   * Reads the test files of {@code spec}'s pipeline and checks them against {@code graph}, the
   * pipeline as resolved in its own folder, as a dry run does: how many tests they hold.
   *
   * @throws SluiceException at a test file's line and column
   */
  public static int check(SparkSession spark, PipelineSpec spec, ResolvedGraph graph) {
    List<PipelineTestCase> tests = TestFiles.load(spec.root());
    TestablePipeline.of(spark, spec, graph, spec.root().toAbsolutePath().normalize()).validate(tests);
    return tests.size();
  }

  /**
   * Makes the tables outside the pipeline that the tests give rows to, each with the columns of
   * all the rows given to it (their types as JSON's inference finds them): the pipeline resolves
   * against them. Only in a session of the tests' own, as {@code sluice test}'s.
   */
  private static void makeTables(SparkSession spark, List<PipelineTestCase> tests) {
    Map<String, List<Map<String, Object>>> rows = new LinkedHashMap<>();
    Map<String, GivenRows> first = new LinkedHashMap<>();
    for (PipelineTestCase test : tests) {
      for (TestUpdate update : test.updates()) {
        for (GivenRows given : update.given()) {
          if (SourceTables.namesTable(given.source())) {
            String table = SourceTables.tableName(given.source());
            rows.computeIfAbsent(table, t -> new ArrayList<>()).addAll(given.rows());
            first.putIfAbsent(table, given);
          }
        }
      }
    }
    rows.forEach((table, given) -> SourceTables.create(spark, table, SourceTables.inferred(spark, given), first.get(table).origin()));
  }

  /** Runs one test; it stops at the first update where something fails. */
  public TestOutcome run(PipelineTestCase test) {
    long start = System.nanoTime();
    PipelineTest run = PipelineTest.start(spark, pipeline, scratch.resolve("test-" + (++started)));
    List<String> failures = new ArrayList<>();
    try {
      for (TestUpdate update : test.updates()) {
        update.given().forEach(run::given);
        run.runUpdate();
        String at = "update " + update.number();
        // State checks first: they accept the failures they expect, and what is left fails the test.
        update.expectations().stream().filter(c -> c instanceof TableExpectation.State)
            .forEach(check -> failure(run, check, update.number()).ifPresent(failures::add));
        run.unexpectedFailures().forEach(failure -> failures.add(at + ": " + failure));
        if (failures.isEmpty()) {
          update.expectations().stream().filter(c -> !(c instanceof TableExpectation.State))
              .forEach(check -> failure(run, check, update.number()).ifPresent(failures::add));
        }
        if (!failures.isEmpty()) {
          break;
        }
      }
    } catch (Exception e) {
      failures.add("the test stopped: " + (e instanceof SluiceException sluice ? sluice.userMessage() : SparkErrors.firstLine(e)));
    }
    if (!failures.isEmpty()) {
      run.keep(); // a failed test's tables, checkpoints and event log stay in its folder, to be looked at
    }
    run.close();
    return new TestOutcome(test.name(), test.origin(), Duration.ofNanos(System.nanoTime() - start), failures,
        failures.isEmpty() ? null : run.folder().toString());
  }

  private static Optional<String> failure(PipelineTest run, TableExpectation check, int update) {
    return run.failureOf(check).map(failure -> TestOutcome.place(update, check, failure));
  }
}
