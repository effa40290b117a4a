package io.sluice.testing;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.execution.DeltaTarget;
import io.sluice.graph.DatasetName;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Checks one test's copy of a pipeline after an update: each {@link TableExpectation} against
 * the tables in the test's database and the update's outcome, as what differs, said for a person.
 */
final class UpdateChecks {
  private static final int ROWS_SHOWN = 10;

  private final SparkSession spark;
  private final TestablePipeline pipeline;
  private final String database;
  private final Path copy;

  UpdateChecks(SparkSession spark, TestablePipeline pipeline, String database, Path copy) {
    this.spark = spark;
    this.pipeline = pipeline;
    this.database = database;
    this.copy = copy;
  }

  /** The dataset {@code name} as the test's copy has it: in the test's own database. */
  DatasetName dataset(String name, io.sluice.Origin origin) {
    return inCopy(pipeline.dataset(name, origin));
  }

  /** A dataset of the pipeline as resolved, as the test's copy has it: the default database is the test's own. */
  DatasetName inCopy(DatasetName resolved) {
    return resolved.database().equals(TestablePipeline.DATABASE) ? new DatasetName(resolved.catalog(), database, resolved.name()) : resolved;
  }

  /** Each table's version now, -1 for one not made yet: what {@link TableExpectation.Unchanged} compares with. */
  Map<DatasetName, Long> versions(Set<DatasetName> tables) {
    Map<DatasetName, Long> versions = new HashMap<>();
    for (DatasetName table : tables) {
      versions.put(table, spark.catalog().tableExists(table.quoted()) ? DeltaTarget.table(table).version(spark) : -1L);
    }
    return versions;
  }

  /** What differs from {@code check} after the update that ended in {@code result}; empty when it holds. */
  Optional<String> failure(TableExpectation check, UpdateResult result, Map<DatasetName, Long> before) {
    return Optional.ofNullable(check instanceof TableExpectation.FailedRows failed ? failedRows(failed, result)
        : check instanceof TableExpectation.State state ? state(state, result)
        : check instanceof TableExpectation.Unchanged unchanged ? unchanged(unchanged, before)
        : check instanceof TableExpectation.NoRows noRows ? noRows(noRows)
        : check instanceof TableExpectation.Count count ? count(count)
        : rows((TableExpectation.Rows) check));
  }

  private String unchanged(TableExpectation.Unchanged check, Map<DatasetName, Long> before) {
    DatasetName table = dataset(check.dataset(), check.origin());
    long was = before.getOrDefault(table, -1L);
    long now = versions(Set.of(table)).get(table);
    return now == was ? null : "expected no new version, found version " + now + " (it was " + (was < 0 ? "not made yet" : "version " + was) + ")";
  }

  private String noRows(TableExpectation.NoRows check) {
    List<Row> rows = session().sql(check.sql()).limit(ROWS_SHOWN + 1).collectAsList();
    return rows.isEmpty() ? null : "the query returned rows, and should return none:\n" + shown(rows);
  }

  private String count(TableExpectation.Count check) {
    long found = rowsOf(check).count();
    return found == check.count() ? null : "expected " + check.count() + " rows, found " + found;
  }

  private static String failedRows(TableExpectation.FailedRows check, UpdateResult result) {
    long failed = 0;
    for (FlowOutcome flow : result.flows()) {
      for (Map.Entry<String, Long> entry : flow.expectationFailures().entrySet()) {
        String name = entry.getKey().replaceFirst(" \\(.*\\)$", ""); // "name (action)"
        if (TableExpectation.FailedRows.names(check.dataset(), flow.dataset(), name)) {
          failed += entry.getValue();
        }
      }
    }
    return failed == check.failed() ? null : "expected " + check.failed() + " rows to fail it, " + failed + " did";
  }

  private String state(TableExpectation.State check, UpdateResult result) {
    Set<String> flows = pipeline.flows(check.dataset(), check.origin());
    List<String> wrong = new ArrayList<>();
    for (FlowOutcome flow : result.flows()) {
      if (!flows.contains(flow.flow())) {
        continue;
      }
      Optional<String> error = flow.failure().flatMap(SparkErrors::errorClass);
      if (flow.state() != check.state()) {
        wrong.add("flow '" + flow.flow() + "' ended " + flow.state() + flow.errorMessage().map(m -> ": " + m).orElse(""));
      } else if (check.error().isPresent() && !check.error().equals(error)) {
        wrong.add("flow '" + flow.flow() + "' failed with " + error.orElse("no error class") + ": " + flow.errorMessage().orElse(""));
      }
    }
    return wrong.isEmpty() ? null : "expected " + check.state() + check.error().map(e -> " with " + e).orElse("") + "; "
        + String.join("; ", wrong);
  }

  private String rows(TableExpectation.Rows rows) {
    Dataset<Row> table = rowsOf(rows);
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
      Map<String, Object> byActual = new HashMap<>();
      row.forEach((k, v) -> byActual.put(columns.stream().filter(c -> Identifiers.sameColumn(c, k)).findFirst().orElseThrow(), v));
      return byActual;
    }).toList();
    RowComparison comparison = RowComparison.of(columns, expected, actual, rows.ordered());
    return comparison.matches() ? null : "\n" + comparison.describe(rows.ordered());
  }

  /** The rows a check reads: the dataset's table in the test's database, or what a sink sent. */
  private Dataset<Row> rowsOf(TableExpectation check) {
    DatasetName name = pipeline.dataset(check.dataset(), check.origin());
    return pipeline.sinkRows(name, copy).orElseGet(() -> session().table(dataset(check.dataset(), check.origin()).quoted()));
  }

  /** A session of its own for checks: a check's {@code USE} or settings do not reach the next update. */
  private SparkSession session() {
    SparkSession session = ((org.apache.spark.sql.classic.SparkSession) spark).cloneSession();
    session.sql("USE " + Identifiers.quote(database));
    return session;
  }

  private static String shown(List<Row> rows) {
    String text = rows.stream().limit(ROWS_SHOWN).map(row -> "  " + row.toString()).collect(Collectors.joining("\n"));
    return rows.size() > ROWS_SHOWN ? text + "\n  ..." : text;
  }
}
