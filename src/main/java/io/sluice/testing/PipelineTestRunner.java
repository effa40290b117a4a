package io.sluice.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ResolvedGraph;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a pipeline's tests on the real engine: each test in a copy of the pipeline's folder
 * ({@link ScratchPipeline}) whose file sources start empty, update after update, each update
 * given its rows as new files in the source's folder, then checked.
 */
public final class PipelineTestRunner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROWS_SHOWN = 10;

  private final SparkSession spark;
  private final PipelineSpec pipeline;
  private final Path scratch;
  /** The file sources a test may give rows to, by name, to their folders relative to the pipeline's. */
  private final Map<String, Path> sources;
  private int started;

  private PipelineTestRunner(SparkSession spark, PipelineSpec pipeline, Path scratch, Map<String, Path> sources) {
    this.spark = spark;
    this.pipeline = pipeline;
    this.scratch = scratch;
    this.sources = sources;
  }

  /**
   * A runner of {@code pipeline}'s {@code tests} in {@code spark}, with their folders under
   * {@code scratch}: resolves the pipeline (as a dry run, on a copy) and checks that every test
   * gives rows only to sources it reads and checks only datasets it defines, before any test runs.
   *
   * @throws SluiceException naming the test file's line and column
   */
  public static PipelineTestRunner validated(SparkSession spark, PipelineSpec pipeline, Path scratch, List<PipelineTestCase> tests) {
    Path folder = scratch.resolve("resolve");
    ResolvedGraph graph = PipelineUpdate.validate(spark, ScratchPipeline.copy(pipeline, folder, "default", Set.of()));
    ScratchPipeline.empty(folder);
    Map<String, Path> read = PipelineSources.files(graph, folder);
    Map<String, Path> inside = new LinkedHashMap<>();
    read.forEach((name, path) -> {
      if (path.startsWith(folder)) {
        inside.put(name, folder.relativize(path));
      }
    });
    Set<DatasetName> datasets = graph.graph().datasets().keySet();
    for (PipelineTestCase test : tests) {
      for (TestUpdate update : test.updates()) {
        for (GivenRows given : update.given()) {
          String name = PipelineSources.normalise(given.source());
          if (!read.containsKey(name)) {
            throw new SluiceException(ErrorClass.TEST_SOURCE_UNKNOWN, given.origin(), "the pipeline reads no source '"
                + given.source() + "'; it reads " + (read.isEmpty() ? "no files" : String.join(", ", read.keySet())));
          }
          if (!inside.containsKey(name)) {
            throw new SluiceException(ErrorClass.TEST_SOURCE_UNKNOWN, given.origin(), "rows cannot be given to '"
                + given.source() + "': its folder is outside the pipeline's folder, and a test writes only into its copy of that");
          }
          if (!name.startsWith("json files ")) {
            throw new SluiceException(ErrorClass.TEST_SOURCE_UNKNOWN, given.origin(), "rows can be given to JSON files for now,"
                + " not to '" + given.source() + "'");
          }
        }
        for (TableExpectation check : update.expectations()) {
          if (!(check instanceof TableExpectation.NoRows) && !datasets.contains(graph.graph().qualify(parts(check.dataset())))) {
            throw new SluiceException(ErrorClass.TEST_DATASET_UNKNOWN, check.origin(), "the pipeline defines no dataset '"
                + check.dataset() + "'; it defines " + datasets.stream().map(DatasetName::name).sorted().collect(Collectors.joining(", ")));
          }
        }
      }
    }
    return new PipelineTestRunner(spark, pipeline, scratch, inside);
  }

  /** Runs one test; every file source of the pipeline starts empty. */
  public TestOutcome run(PipelineTestCase test) {
    long start = System.nanoTime();
    Path folder = scratch.resolve("test-" + (++started));
    String database = "sluice_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    PipelineSpec copy = ScratchPipeline.copy(pipeline, folder, database, Set.copyOf(sources.values()));
    spark.sql("CREATE DATABASE " + Identifiers.quote(database) + " LOCATION '"
        + folder.resolve(".sluice/warehouse").toUri().toString().replace("'", "\\'") + "'");
    List<String> failures = new ArrayList<>();
    try {
      for (TestUpdate update : test.updates()) {
        for (GivenRows given : update.given()) {
          Path source = folder.resolve(sources.get(PipelineSources.normalise(given.source())));
          write(source.resolve(String.format("sluice-test-update-%03d.json", update.number())), given.rows());
        }
        UpdateResult result = PipelineUpdate.run(spark, copy, new UpdateOptions(false, List.of(), List.of()), List.of());
        if (!result.succeeded()) {
          for (FlowOutcome flow : result.flows()) {
            flow.errorMessage().ifPresent(error -> failures.add("update " + update.number() + ": flow '" + flow.flow() + "' failed: " + error));
          }
          break;
        }
        for (TableExpectation check : update.expectations()) {
          String failure = check(check, database);
          if (failure != null) {
            failures.add("update " + update.number() + ", " + check.dataset() + " (" + check.origin() + "): " + failure);
          }
        }
        if (!failures.isEmpty()) {
          break;
        }
      }
    } catch (Exception e) {
      failures.add("the test stopped: " + (e instanceof SluiceException sluice ? sluice.userMessage() : SparkErrors.firstLine(e)));
    }
    // A failed test's tables, checkpoints and event log stay in its folder, to be looked at.
    String kept = failures.isEmpty() ? null : folder.toString();
    if (kept == null) {
      spark.sql("DROP DATABASE IF EXISTS " + Identifiers.quote(database) + " CASCADE");
      ScratchPipeline.empty(folder);
    }
    return new TestOutcome(test.name(), test.origin(), Duration.ofNanos(System.nanoTime() - start), failures, kept);
  }

  /** What differs from {@code check}, or null when it holds. */
  private String check(TableExpectation check, String database) {
    SparkSession session = ((org.apache.spark.sql.classic.SparkSession) spark).cloneSession();
    session.sql("USE " + Identifiers.quote(database));
    if (check instanceof TableExpectation.NoRows noRows) {
      List<Row> rows = session.sql(noRows.sql()).limit(ROWS_SHOWN + 1).collectAsList();
      return rows.isEmpty() ? null : "the query returned rows, and should return none:\n" + shown(rows);
    }
    Dataset<Row> table = session.table(qualified(check.dataset(), database));
    if (check instanceof TableExpectation.Count count) {
      long found = table.count();
      return found == count.count() ? null : "expected " + count.count() + " rows, found " + found;
    }
    TableExpectation.Rows rows = (TableExpectation.Rows) check;
    Set<String> named = new LinkedHashSet<>();
    rows.rows().forEach(row -> named.addAll(row.keySet()));
    List<String> columns = new ArrayList<>();
    for (String column : named) {
      String actual = Arrays.stream(table.columns()).filter(c -> Identifiers.sameColumn(c, column)).findFirst().orElse(null);
      if (actual == null) {
        return "no column '" + column + "'; its columns are " + String.join(", ", table.columns());
      }
      columns.add(actual);
    }
    if (columns.isEmpty()) {
      return table.isEmpty() ? null : "expected no rows, found " + table.count() + ":\n" + shown(table.limit(ROWS_SHOWN).collectAsList());
    }
    List<List<String>> actual = table.selectExpr(columns.stream().map(c -> "CAST(" + Identifiers.quote(c) + " AS STRING)").toArray(String[]::new))
        .collectAsList().stream().map(row -> {
          List<String> values = new ArrayList<>();
          for (int i = 0; i < row.length(); i++) {
            values.add(row.isNullAt(i) ? null : row.getString(i));
          }
          return values;
        }).toList();
    List<Map<String, Object>> expected = rows.rows().stream().map(row -> {
      Map<String, Object> byActual = new java.util.HashMap<>();
      row.forEach((k, v) -> byActual.put(columns.stream().filter(c -> Identifiers.sameColumn(c, k)).findFirst().orElseThrow(), v));
      return byActual;
    }).toList();
    RowComparison comparison = RowComparison.of(columns, expected, actual, rows.ordered());
    return comparison.matches() ? null : "\n" + comparison.describe(rows.ordered());
  }

  private static String qualified(String dataset, String database) {
    List<String> parts = parts(dataset);
    return parts.size() == 1 ? Identifiers.quote(database) + "." + Identifiers.quote(parts.get(0))
        : parts.stream().map(Identifiers::quote).collect(Collectors.joining("."));
  }

  private static List<String> parts(String dataset) {
    return List.of(dataset.split("\\."));
  }

  private static String shown(List<Row> rows) {
    String text = rows.stream().limit(ROWS_SHOWN).map(row -> "  " + row.toString()).collect(Collectors.joining("\n"));
    return rows.size() > ROWS_SHOWN ? text + "\n  ..." : text;
  }

  private static void write(Path file, List<Map<String, Object>> rows) {
    StringBuilder lines = new StringBuilder();
    try {
      for (Map<String, Object> row : rows) {
        lines.append(JSON.writeValueAsString(row)).append('\n');
      }
      Files.createDirectories(file.getParent());
      Files.writeString(file, lines.toString());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
