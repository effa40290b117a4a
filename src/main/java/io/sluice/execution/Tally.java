package io.sluice.execution;

import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * How many rows of a dataset meet each of some conditions. {@link #countAll} counts several
 * tallies in one Spark job: one aggregation per dataset, the aggregations unioned (a cross
 * join of them would broadcast each side in a job of its own), without adaptive execution
 * (see {@link BatchSettings#forCounts}).
 */
public record Tally(Dataset<Row> rows, List<Column> conditions) {
  public static Tally of(Dataset<Row> rows, Column... conditions) {
    return new Tally(rows, List.of(conditions));
  }

  /** For each tally, in order, the count of each of its conditions. */
  public static long[][] countAll(Tally... tallies) {
    int width = 0;
    for (Tally tally : tallies) {
      width = Math.max(width, tally.conditions.size());
    }
    Dataset<Row> all = null;
    for (int t = 0; t < tallies.length; t++) {
      List<Column> sums = new ArrayList<>();
      for (int c = 0; c < width; c++) {
        Column counted = c < tallies[t].conditions.size()
            ? sum(when(tallies[t].conditions.get(c), 1L).otherwise(0L)) : lit(0L);
        sums.add(counted.cast("long").as("c" + c));
      }
      Dataset<Row> one = tallies[t].rows.agg(lit(t).as("tally"), sums.toArray(Column[]::new));
      all = all == null ? one : all.union(one);
    }
    Dataset<Row> unioned = all;
    List<Row> rows = BatchSettings.forCounts(unioned.sparkSession(), unioned::collectAsList);
    long[][] counts = new long[tallies.length][];
    for (Row row : rows) {
      long[] values = new long[tallies[row.getInt(0)].conditions.size()];
      for (int c = 0; c < values.length; c++) {
        values[c] = row.isNullAt(c + 1) ? 0 : row.getLong(c + 1);
      }
      counts[row.getInt(0)] = values;
    }
    return counts;
  }
}
