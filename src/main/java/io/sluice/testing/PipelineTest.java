package io.sluice.testing;

import io.sluice.Origin;
import io.sluice.common.Identifiers;
import io.sluice.eventlog.FlowState;
import io.sluice.graph.DatasetName;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecLoader;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * A test of a pipeline in Java: rows given to its sources, an update, then what its tables must
 * hold, update after update. The test runs in a copy of the pipeline's folder with storage and a
 * database of its own, whose file sources start empty; the pipeline's own storage, catalog and
 * files are never touched.
 *
 * <pre>{@code
 * try (PipelineTest test = PipelineTest.of(Path.of("examples/auto-cdc"))) {
 *   test.given("json files data/users", row("userId", 1, "name", "Ann", "operation", "INSERT", "sequenceNum", 1))
 *       .update()
 *       .expect("users_scd1", row("userId", 1, "name", "Ann"));
 * }
 * }</pre>
 *
 * <p>A check that does not hold throws an {@link AssertionError} with what differs. An update in
 * which a flow fails fails the test at the next call, unless {@link #expectFailed} says that
 * failure is the point. A passed test's folder is removed at {@link #close}; a failed one's is
 * kept, and its message says where.
 */
public final class PipelineTest implements AutoCloseable {
  private final SparkSession spark;
  private final TestablePipeline pipeline;
  private final Path folder;
  private final String database;
  private final PipelineSpec copy;
  private final UpdateChecks checks;
  /** Rows given since the last update, by where they go. */
  private final Map<GivenTarget, List<Map<String, Object>>> given = new LinkedHashMap<>();
  private int updates;
  private UpdateResult last;
  private Map<DatasetName, Long> versionsBefore = Map.of();
  /** Flows that failed in the last update and that no {@link #expectFailed} has accepted yet. */
  private final Set<String> unexpectedFailures = new java.util.LinkedHashSet<>();
  private boolean failed;

  private PipelineTest(SparkSession spark, TestablePipeline pipeline, Path folder, String database, PipelineSpec copy) {
    this.spark = spark;
    this.pipeline = pipeline;
    this.folder = folder;
    this.database = database;
    this.copy = copy;
    this.checks = new UpdateChecks(spark, pipeline, database, folder);
  }

  /** A test of the pipeline in {@code folder}, in this JVM's test session ({@link TestSession}). */
  public static PipelineTest of(Path folder) {
    PipelineSpec spec = SpecLoader.load(folder);
    return of(TestSession.get(spec), folder);
  }

  /** A test of the pipeline in {@code folder}, in {@code spark}; the pipeline is resolved once per session. */
  public static PipelineTest of(SparkSession spark, Path folder) {
    PipelineSpec spec = SpecLoader.load(folder);
    return start(spark, TestSession.resolved(spark, spec), TestSession.newFolder());
  }

  /** A test of {@code pipeline} in a copy of its folder made in {@code folder}. */
  static PipelineTest start(SparkSession spark, TestablePipeline pipeline, Path folder) {
    String database = "sluice_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    PipelineSpec copy = ScratchPipeline.copy(pipeline.spec(), folder, database, pipeline.sourceFolders());
    pipeline.spec().configuration().forEach((key, value) -> {
      if (spark.conf().isModifiable(key) || key.startsWith("spark.sql.catalog.")) {
        spark.conf().set(key, value);
      }
    });
    spark.sql("CREATE DATABASE " + Identifiers.quote(database) + " LOCATION '"
        + folder.resolve(".sluice/warehouse").toUri().toString().replace("'", "\\'") + "'");
    pipeline.tablesMadeForTests().forEach(table -> SourceTables.empty(spark, table));
    return new PipelineTest(spark, pipeline, folder, database, copy);
  }

  /**
   * Makes a table outside the pipeline for tests to give rows to, as {@code sluice test} does
   * from its tests' rows: before {@link #of}, since the pipeline resolves against it. Only a table
   * made so is written by a test (and emptied at each test's start); a table of that name that
   * exists and was not made for tests is refused.
   *
   * @param schema its columns, as in {@code CREATE TABLE}: {@code "booking_id BIGINT, status STRING"}
   */
  public static void createSourceTable(SparkSession spark, String table, String schema) {
    SourceTables.create(spark, table, org.apache.spark.sql.types.StructType.fromDDL(schema), Origin.UNKNOWN);
  }

  /** A row for {@link #given} or {@link #expect}: column names and values in turn. */
  public static Map<String, Object> row(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("a row takes names and values in pairs: " + Arrays.toString(namesAndValues));
    }
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      row.put(String.valueOf(namesAndValues[i]), namesAndValues[i + 1]);
    }
    return row;
  }

  /** Rows that arrive at {@code source} (named as {@code sluice graph} names it) before the next update. */
  @SafeVarargs
  public final PipelineTest given(String source, Map<String, Object>... rows) {
    return given(source, List.of(rows));
  }

  /** Rows that arrive at {@code source} before the next update. */
  public PipelineTest given(String source, List<Map<String, Object>> rows) {
    given(new GivenRows(source, caller(), rows));
    return this;
  }

  /** Rows for the next update, checked against the pipeline's sources now. */
  void given(GivenRows rows) {
    holdFailures();
    given.computeIfAbsent(pipeline.target(rows, updates + 1), target -> new ArrayList<>()).addAll(rows.rows());
  }

  /** Runs an update of the pipeline on the rows given since the last one. */
  public PipelineTest update() {
    holdFailures();
    runUpdate();
    return this;
  }

  /** Runs an update; a flow that fails in it is held against the test until a check accepts it. */
  UpdateResult runUpdate() {
    given.forEach((target, rows) -> target.write(spark, folder, rows));
    given.clear();
    versionsBefore = checks.versions(pipeline.tables().stream().map(checks::inCopy).collect(Collectors.toSet()));
    last = ScratchPipeline.withTopics(spark, folder, () -> PipelineUpdate.run(spark, copy, UpdateOptions.DEFAULT, List.of()));
    updates++;
    unexpectedFailures.clear();
    last.flows().stream().filter(f -> f.state() == FlowState.FAILED).forEach(f -> unexpectedFailures.add(f.flow()));
    return last;
  }

  /** The dataset holds exactly these rows, compared as a multiset on the columns they name. */
  @SafeVarargs
  public final PipelineTest expect(String dataset, Map<String, Object>... rows) {
    return expect(dataset, List.of(rows));
  }

  /** The dataset holds exactly these rows, compared as a multiset on the columns they name. */
  public PipelineTest expect(String dataset, List<Map<String, Object>> rows) {
    return assertThat(new TableExpectation.Rows(dataset, caller(), rows, false));
  }

  /** The dataset holds these rows in this order, on the columns they name. */
  public PipelineTest expectOrdered(String dataset, List<Map<String, Object>> rows) {
    return assertThat(new TableExpectation.Rows(dataset, caller(), rows, true));
  }

  public PipelineTest expectCount(String dataset, long count) {
    return assertThat(new TableExpectation.Count(dataset, caller(), count));
  }

  public PipelineTest expectEmpty(String dataset) {
    return expectCount(dataset, 0);
  }

  /** A query over the pipeline's tables (in the test's database) returns no rows. */
  public PipelineTest expectNoRows(String sql) {
    return assertThat(new TableExpectation.NoRows("sql", caller(), sql));
  }

  /** This many rows failed the expectation in the last update ({@code table.name} when two tables share the name). */
  public PipelineTest expectFailedRows(String expectation, long failed) {
    return assertThat(new TableExpectation.FailedRows(expectation, caller(), failed));
  }

  /**
   * The flow of this name (or every flow into the dataset of this name) failed in the last
   * update, with {@code errorClass} (e.g. {@code EXPECTATION_VIOLATION}); null accepts any.
   */
  public PipelineTest expectFailed(String flow, String errorClass) {
    return assertThat(new TableExpectation.State(flow, caller(), FlowState.FAILED, Optional.ofNullable(errorClass)));
  }

  /** The last update made no new version of the table. */
  public PipelineTest expectUnchanged(String table) {
    return assertThat(new TableExpectation.Unchanged(table, caller()));
  }

  private PipelineTest assertThat(TableExpectation check) {
    pipeline.validate(check);
    if (!(check instanceof TableExpectation.State)) {
      holdFailures();
    }
    Optional<String> failure = failureOf(check);
    if (failure.isPresent()) {
      failed = true;
      throw new AssertionError(TestOutcome.place(updates, check, failure.get())
          + "\n(the test's files are kept in " + folder + ")");
    }
    return this;
  }

  /** What differs from {@code check} after the last update; empty when it holds. Accepts the failures a state check names. */
  Optional<String> failureOf(TableExpectation check) {
    if (last == null) {
      throw new IllegalStateException("a check comes after an update: call update() first");
    }
    Optional<String> failure = checks.failure(check, last, versionsBefore);
    if (failure.isEmpty() && check instanceof TableExpectation.State state && state.state() == FlowState.FAILED) {
      unexpectedFailures.removeAll(pipeline.flows(state.dataset(), state.origin()));
    }
    return failure;
  }

  /** The failures of the last update that no check accepted, as a person reads them. */
  List<String> unexpectedFailures() {
    if (last == null) {
      return List.of();
    }
    return last.flows().stream().filter(f -> unexpectedFailures.contains(f.flow()))
        .map(f -> "flow '" + f.flow() + "' failed: " + f.errorMessage().orElse("")).toList();
  }

  private void holdFailures() {
    List<String> failures = unexpectedFailures();
    if (!failures.isEmpty()) {
      failed = true;
      throw new AssertionError("update " + updates + ": " + String.join("; ", failures) + "\n(the test's files are kept in " + folder + ")");
    }
  }

  /** Where this test's copy of the pipeline is: its tables are under {@code .sluice/warehouse}, its event log under {@code .sluice}. */
  public Path folder() {
    return folder;
  }

  /** The database the test's tables are in. */
  public String database() {
    return database;
  }

  /** Marks the test failed: {@link #close} keeps its folder. */
  void keep() {
    failed = true;
  }

  /**
   * Ends the test: a passed test's database and folder are removed. A failure of the last update
   * that no check accepted fails the test here.
   */
  @Override
  public void close() {
    try {
      if (!failed) {
        holdFailures();
      }
    } finally {
      if (!failed) {
        spark.sql("DROP DATABASE IF EXISTS " + Identifiers.quote(database) + " CASCADE");
        ScratchPipeline.empty(folder);
        folder.toFile().delete();
      }
    }
  }

  /** The test's line in the caller's source, for the messages: the first frame outside this class. */
  private static Origin caller() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> frames
        .filter(f -> f.getDeclaringClass() != PipelineTest.class)
        .findFirst()
        .map(f -> Origin.of(f.getFileName() == null ? f.getClassName() : f.getFileName(), f.getLineNumber()))
        .orElse(Origin.UNKNOWN));
  }
}
