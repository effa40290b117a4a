package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import io.sluice.common.Identifiers;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * How many of each group's rows hold each value of the view's {@code count(DISTINCT ...)}
 * column, kept beside the view ({@link GroupState}): a change's rows, aggregated per group and
 * value ({@link GroupColumns#distinctValue}), add to those counts and take from them; a value
 * whose count rises from zero comes to its group's distinct count, one whose count falls to zero
 * leaves it.
 */
final class DistinctValues {
  static final String COUNT = "__sluice_count";
  /** 1 for a value that came to its group, -1 for one that left it, else 0. */
  static final String GAINED = "__sluice_gained";

  private DistinctValues() {}

  /**
   * {@code change}, a change aggregated per group and value, with each value's new count
   * ({@value #COUNT}) and {@value #GAINED}, from the counts {@code kept} (null: none yet).
   */
  static Dataset<Row> merged(Dataset<Row> change, Dataset<Row> kept, List<String> keys) {
    Column valued = col("c." + GroupColumns.VALUE).isNotNull();
    Column held = kept == null ? lit(0L) : coalesce(col("k." + COUNT), lit(0L));
    Column now = held.plus(col("c." + GroupColumns.ROWS));
    Column gained = when(valued.and(held.equalTo(0)).and(now.gt(0)), 1)
        .when(valued.and(held.gt(0)).and(now.equalTo(0)), -1).otherwise(0);
    Dataset<Row> joined = kept == null ? change.as("c")
        : change.as("c").join(kept.as("k"), GroupColumns.sameValues("c", "k", valueKeys(keys)), "left");
    return joined.select(col("c.*"), when(valued, now).as(COUNT), gained.as(GAINED));
  }

  /** The counts to keep of {@link #merged} rows: the values their groups still hold. */
  static Dataset<Row> counts(Dataset<Row> merged, List<String> keys) {
    List<Column> columns = new ArrayList<>(names(keys));
    columns.add(col(COUNT));
    return merged.where(col(COUNT).gt(0)).select(columns.toArray(Column[]::new));
  }

  /** The group keys and values of {@link #merged} rows whose kept counts they replace. */
  static Dataset<Row> touched(Dataset<Row> merged, List<String> keys) {
    return merged.where(col(GroupColumns.VALUE).isNotNull()).select(names(keys).toArray(Column[]::new));
  }

  /** The columns a kept count is keyed by: the group keys and the value. */
  static List<String> valueKeys(List<String> keys) {
    List<String> columns = new ArrayList<>(keys);
    columns.add(GroupColumns.VALUE);
    return columns;
  }

  private static List<Column> names(List<String> keys) {
    return valueKeys(keys).stream().map(k -> col(Identifiers.quote(k))).toList();
  }
}
