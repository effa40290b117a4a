package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sequence;
import static org.apache.spark.sql.functions.sum;

import io.sluice.common.Identifiers;
import io.sluice.execution.DeltaTarget;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@link Technique#ROW_BASED}: the rows a change adds and takes away, counted by value, give each
 * touched value's new number of rows (what the view holds plus the difference); the view's rows of
 * those values are replaced by as many copies. Rows are a multiset: two equal rows are two.
 */
final class RowCounts {
  private static final String DIFFERENCE = "__sluice_difference";
  private static final String HELD = "__sluice_held";
  private static final String COPY = "__sluice_copy";

  private RowCounts() {}

  static void refresh(SparkSession spark, ChangePlan change, List<String> columns, DeltaTarget view, RefreshCommit commit) {
    Column[] all = ChangePlan.columns(columns);
    Dataset<Row> differences = change.signed().groupBy(all)
        .agg(sum(ChangePlan.SIGN).as(DIFFERENCE)).where(col(DIFFERENCE).notEqual(0)).persist();
    try {
      Dataset<Row> counts = view.readPinned(spark).as("v")
          .join(differences.as("d"), GroupColumns.sameValues("v", "d", columns), "left_semi")
          .groupBy(all).agg(count(lit(1)).as(HELD));
      Column number = coalesce(col("h." + HELD), lit(0L)).plus(col("d." + DIFFERENCE));
      List<Column> copies = new ArrayList<>();
      for (String column : columns) {
        copies.add(col("d." + Identifiers.quote(column)).as(column));
      }
      copies.add(explode(sequence(lit(1L), number)).as(COPY));
      Dataset<Row> rows = differences.as("d").join(counts.as("h"), GroupColumns.sameValues("d", "h", columns), "left")
          .where(number.gt(0)).select(copies.toArray(Column[]::new)).drop(COPY);
      commit.replace(rows, differences.select(all), columns);
    } finally {
      differences.unpersist();
    }
  }
}
