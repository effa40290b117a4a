package io.sluice.expectations;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Applies a dataset's expectations to one batch. One aggregation over the batch counts
 * every expectation's failures at once, and those of the flow kind's
 * {@link BatchRequirement}s; a requirement or a FAIL expectation that failed stops here,
 * before anything is written; DROP expectations filter the rows that go on to be written.
 */
public final class ExpectationChecker {
  private final String dataset;
  private final String flow;
  private final List<Expectation> expectations;
  private final List<BatchRequirement> requirements;

  public ExpectationChecker(String dataset, String flow, List<Expectation> expectations,
      List<BatchRequirement> requirements) {
    this.dataset = dataset;
    this.flow = flow;
    this.expectations = List.copyOf(expectations);
    this.requirements = List.copyOf(requirements);
  }

  /** The rows to write and the figures for the batch. The caller should cache {@code batch}. */
  public Checked check(Dataset<Row> batch) {
    List<Column> aggregates = new ArrayList<>();
    aggregates.add(count(lit(1)));
    aggregates.add(sum(when(keep(), 0).otherwise(1)));
    for (Expectation expectation : expectations) {
      aggregates.add(sum(when(holds(condition(expectation)), 0).otherwise(1)));
    }
    // Required of the rows that are kept: a DROP expectation is how a user lets the others go.
    for (BatchRequirement requirement : requirements) {
      aggregates.add(sum(when(keep().and(not(holds(requirement.holds()))), 1).otherwise(0)));
    }
    Row counts = batch.agg(aggregates.get(0), aggregates.subList(1, aggregates.size()).toArray(Column[]::new)).first();
    long input = counts.getLong(0);
    long dropped = figure(counts, 1);
    List<ExpectationResult> results = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      Expectation expectation = expectations.get(i);
      long failed = figure(counts, 2 + i);
      if (failed > 0 && expectation.action() == ViolationAction.FAIL) {
        throw new ExpectationFailedException(expectation, dataset, flow, offendingRow(batch, condition(expectation)));
      }
      results.add(new ExpectationResult(expectation.name(), dataset, input - failed, failed));
    }
    for (int i = 0; i < requirements.size(); i++) {
      BatchRequirement requirement = requirements.get(i);
      if (figure(counts, 2 + expectations.size() + i) > 0) {
        throw requirement.failure().apply(offendingRow(batch.where(keep()), requirement.holds()));
      }
    }
    Dataset<Row> rows = dropped == 0 ? batch : batch.where(keep());
    return new Checked(rows, new BatchQuality(input, dropped, results));
  }

  /** True for a row that every DROP expectation lets through. */
  private Column keep() {
    Column keep = lit(true);
    for (Expectation expectation : expectations) {
      if (expectation.action() == ViolationAction.DROP) {
        keep = keep.and(holds(condition(expectation)));
      }
    }
    return keep;
  }

  /** A sum over no row is NULL: none. */
  private static long figure(Row counts, int i) {
    return counts.isNullAt(i) ? 0 : counts.getLong(i);
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

  /** The rows that pass the DROP expectations, with the batch's figures. */
  public record Checked(Dataset<Row> rows, BatchQuality quality) {}
}
