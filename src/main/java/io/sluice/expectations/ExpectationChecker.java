package io.sluice.expectations;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import io.sluice.common.Identifiers;
import io.sluice.common.Observed;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.AtomicType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Applies a dataset's expectations to one batch. One aggregation over the batch counts
 * every expectation's failures at once, and those of the flow kind's
 * {@link BatchRequirement}s; a requirement or a FAIL expectation that failed stops here,
 * before anything is written; DROP expectations filter the rows that go on to be written.
 *
 * <p>The same pass counts the rows whose {@value BatchQuality#RESCUED_DATA_COLUMN} is set, when
 * the batch has that column. Expectations are on the rows the flow's query produced; requirements on the rows its
 * sink will take (for a table, shaped to it: its columns, their types), in the same pass.
 */
public final class ExpectationChecker {
  private static final String KEEP = "__sluice_kept";
  private static final String PASSES = "__sluice_passes_";
  private static final String RESCUED = "__sluice_rescued";
  private final String dataset;
  private final String flow;
  private final List<Expectation> expectations;
  private final List<BatchRequirement> requirements;
  private final Function<StructType, List<Column>> sinkColumns;
  private final Optional<Column> sampled;

  /**
   * @param sinkColumns the columns of the rows the sink takes, made from the batch's schema
   * @param sampled a column of those rows whose distinct values the same pass samples ({@link ValueSample})
   */
  public ExpectationChecker(String dataset, String flow, List<Expectation> expectations,
      List<BatchRequirement> requirements, Function<StructType, List<Column>> sinkColumns, Optional<Column> sampled) {
    this.dataset = dataset;
    this.flow = flow;
    this.expectations = List.copyOf(expectations);
    this.requirements = List.copyOf(requirements);
    this.sinkColumns = sinkColumns;
    this.sampled = sampled;
  }

  /** The rows to write and the figures for the batch, in a pass of their own. The caller should cache {@code batch}. */
  public Checked check(Dataset<Row> batch) {
    Outcomes outcomes = outcomes(batch);
    Row counts = outcomes.rows.agg(outcomes.aggregates.get(0),
        outcomes.aggregates.subList(1, outcomes.aggregates.size()).toArray(Column[]::new)).first();
    Dataset<Row> rows = dropped(counts) == 0 ? batch : batch.where(keep());
    return checked(batch, outcomes, counts, rows);
  }

  /**
   * The batch's rows as the sink takes them (its columns, DROP expectations applied), counted
   * by the first Spark job that reads them rather than in a pass of their own (Spark's observed
   * metrics): {@link ObservedBatch#checked} gives the figures, and fails the batch as {@link #check}
   * does, once that job has run. For a sink whose first job over the batch writes nothing.
   */
  public ObservedBatch observe(Dataset<Row> batch) {
    Outcomes outcomes = outcomes(batch);
    Observed figures = new Observed("the batch of flow '" + flow + "'");
    Dataset<Row> observed = figures.of(outcomes.rows, outcomes.aggregates.get(0),
        outcomes.aggregates.subList(1, outcomes.aggregates.size()).toArray(Column[]::new));
    List<String> sinkNames = List.of(outcomes.rows.columns()).subList(outcomes.helpers, outcomes.rows.columns().length);
    Column[] sink = sinkNames.stream().map(name -> col(Identifiers.quote(name))).toArray(Column[]::new);
    Dataset<Row> rows = observed.where(col(KEEP)).select(sink);
    return new ObservedBatch(rows, () -> checked(batch, outcomes, figures.figures(), rows));
  }

  /** Each row's outcomes beside the row as the sink will take it, and the aggregates that count them. */
  private Outcomes outcomes(Dataset<Row> batch) {
    List<Column> projection = new ArrayList<>();
    projection.add(keep().as(KEEP));
    for (int i = 0; i < expectations.size(); i++) {
      projection.add(holds(condition(expectations.get(i))).as(PASSES + i));
    }
    boolean rescues = List.of(batch.schema().fieldNames()).contains(BatchQuality.RESCUED_DATA_COLUMN);
    if (rescues) {
      projection.add(col(BatchQuality.RESCUED_DATA_COLUMN).as(RESCUED));
    }
    int helpers = projection.size();
    projection.addAll(sinkColumns.apply(batch.schema()));
    Dataset<Row> outcomes = batch.select(projection.toArray(Column[]::new));
    List<Column> aggregates = new ArrayList<>();
    aggregates.add(count(lit(1)).as("input"));
    aggregates.add(sum(when(col(KEEP), 0).otherwise(1)).as("dropped"));
    for (int i = 0; i < expectations.size(); i++) {
      aggregates.add(sum(when(col(PASSES + i), 0).otherwise(1)).as("failed_" + i));
    }
    // Required of the rows that are kept: a DROP expectation is how a user lets the others go.
    for (int i = 0; i < requirements.size(); i++) {
      aggregates.add(sum(when(col(KEEP).and(not(holds(requirements.get(i).holds()))), 1).otherwise(0)).as("unmet_" + i));
    }
    if (rescues) {
      aggregates.add(sum(when(col(RESCUED).isNotNull(), 1).otherwise(0)).as("rescued"));
    }
    // A sample of a column that literals cannot bound (a struct, an array) would bound nothing.
    Optional<DataType> sampledType = sampled.map(c -> typeOf(outcomes, c)).filter(AtomicType.class::isInstance);
    sampledType.ifPresent(type -> aggregates.add(ValueSample.aggregate(sampled.get(), type, col(KEEP)).as("sample")));
    return new Outcomes(outcomes, helpers, aggregates, rescues, sampledType);
  }

  private static long dropped(Row counts) {
    return figure(counts, 1);
  }

  /**
   * A batch's rows beside their outcomes ({@code helpers} columns of them, then the sink's),
   * and the aggregates over them: the input rows, the dropped rows, each expectation's failures,
   * each requirement's, the rescued rows, the sample.
   */
  private record Outcomes(Dataset<Row> rows, int helpers, List<Column> aggregates, boolean rescues,
      Optional<DataType> sampledType) {}

  /** The figures of {@code counts}, or the failure of a FAIL expectation or a requirement. */
  private Checked checked(Dataset<Row> batch, Outcomes outcomes, Row counts, Dataset<Row> rows) {
    long input = figure(counts, 0);
    List<ExpectationResult> results = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      Expectation expectation = expectations.get(i);
      long failed = figure(counts, 2 + i);
      if (failed > 0 && expectation.action() == ViolationAction.FAIL) {
        throw new ExpectationFailedException(expectation, dataset, flow, offendingRow(batch, condition(expectation)));
      }
      results.add(new ExpectationResult(expectation.name(), dataset, expectation.action(), input - failed, failed));
    }
    for (int i = 0; i < requirements.size(); i++) {
      BatchRequirement requirement = requirements.get(i);
      if (figure(counts, 2 + expectations.size() + i) > 0) {
        Dataset<Row> kept = outcomes.rows.where(col(KEEP)).select(sinkColumns.apply(batch.schema()).toArray(Column[]::new));
        throw requirement.failure().apply(offendingRow(kept, requirement.holds()));
      }
    }
    long rescued = outcomes.rescues ? figure(counts, 2 + expectations.size() + requirements.size()) : 0;
    Optional<ValueSample> values = outcomes.sampledType.filter(type -> counts.length() > 0)
        .map(type -> ValueSample.of((byte[]) counts.get(counts.length() - 1)));
    return new Checked(rows, new BatchQuality(input, dropped(counts), rescued, results), values);
  }

  /** Whether a row passes every DROP expectation. */
  private Column keep() {
    Column keep = lit(true);
    for (Expectation expectation : expectations) {
      if (expectation.action() == ViolationAction.DROP) {
        keep = keep.and(holds(condition(expectation)));
      }
    }
    return keep;
  }

  private static DataType typeOf(Dataset<Row> rows, Column column) {
    return rows.select(column).schema().fields()[0].dataType();
  }

  /** A sum over no row is NULL: none; and observed rows that Spark left out of its plan, knowing them empty, have no figures. */
  private static long figure(Row counts, int i) {
    return i >= counts.length() || counts.isNullAt(i) ? 0 : counts.getLong(i);
  }

  private static Column condition(Expectation expectation) {
    return expr(expectation.condition());
  }

  /** A row passes only when the condition is true: false and NULL both violate (§6.1). */
  private static Column holds(Column condition) {
    return coalesce(condition, lit(false));
  }

  private static String offendingRow(Dataset<Row> batch, Column condition) {
    return batch.where(not(holds(condition))).toJSON().first();
  }

  /** The rows that pass the DROP expectations, with the batch's figures and the sample of the values asked for. */
  public record Checked(Dataset<Row> rows, BatchQuality quality, Optional<ValueSample> sample) {}

  /**
   * A batch's rows to write, counted as they are read: {@link #checked} is for after the first
   * Spark job that read {@link #rows}, and before anything is committed.
   */
  public record ObservedBatch(Dataset<Row> rows, Supplier<Checked> checked) {}
}
