package io.sluice.execution;

import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;

import io.sluice.expectations.ValueSample;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.AtomicType;

/**
 * Literal bounds on one key column, taken from a batch: the batch's values as an IN list
 * (or their range, past {@value #IN_LIST_LIMIT} values), and whether NULL is among them.
 * Open-source Delta prunes files by such literals, not by a join's keys, so they keep a
 * keyed write's cost proportional to the batch, not to the table.
 */
public record KeyBounds(Object[] values, Object low, Object high, boolean hasNull) {
  static final int IN_LIST_LIMIT = ValueSample.LIMIT;
  /** No bounds: for a key that literals cannot express (a struct or an array). */
  private static final KeyBounds NONE = new KeyBounds(null, null, null, true);

  /**
   * The bounds of {@code column} in {@code keys}, from {@code sample} (the batch's values of that
   * column, taken as the batch was counted) when it holds them all: no Spark job then.
   */
  public static KeyBounds of(Optional<ValueSample> sample, Dataset<Row> keys, String column) {
    if (keys.schema().apply(column).dataType() instanceof AtomicType
        && sample.isPresent() && sample.get().values().isPresent()) {
      return new KeyBounds(sample.get().values().get().toArray(), null, null, sample.get().hasNull());
    }
    return of(keys, column);
  }

  public static KeyBounds of(Dataset<Row> keys, String column) {
    if (!(keys.schema().apply(column).dataType() instanceof AtomicType)) {
      return NONE;
    }
    List<Row> distinct = keys.select(ColumnNames.col(column)).distinct().limit(IN_LIST_LIMIT + 1).collectAsList();
    boolean hasNull = distinct.stream().anyMatch(r -> r.isNullAt(0));
    if (distinct.size() <= IN_LIST_LIMIT) {
      Object[] values = distinct.stream().filter(r -> !r.isNullAt(0)).map(r -> r.get(0)).toArray();
      return new KeyBounds(values, null, null, hasNull);
    }
    Row range = keys.agg(min(ColumnNames.col(column)), max(ColumnNames.col(column))).first();
    return new KeyBounds(null, range.get(0), range.get(1), hasNull);
  }

  /**
   * The rows of {@code rows} whose key ({@code keyColumns}, the first the one these bounds are
   * of; NULL matching NULL) is one of {@code keys}: read through the bounds, so Delta skips
   * files, then joined with the keys, unless the bounds are exactly the keys (one key column, an
   * IN list without NULL): a broadcast join costs a Spark job, however small the batch.
   */
  public Dataset<Row> within(Dataset<Row> rows, List<String> keyColumns, Dataset<Row> keys) {
    Dataset<Row> bounded = rows.where(on(ColumnNames.col(keyColumns.get(0))));
    if (exactlyTheKeys(keyColumns)) {
      return bounded;
    }
    Column match = lit(true);
    for (String key : keyColumns) {
      match = match.and(ColumnNames.col("r", key).eqNullSafe(ColumnNames.col("k", key)));
    }
    return bounded.as("r").join(keys.as("k"), match, "left_semi");
  }

  /**
   * Whether these bounds are exactly the batch's keys (one key column, an IN list without NULL):
   * {@link #within} then keeps the rows of the batch's keys by a filter alone, with no join, and
   * anything aggregated per key from them has at most one row per key of the batch.
   */
  public boolean exactlyTheKeys(List<String> keyColumns) {
    return keyColumns.size() == 1 && values != null && !hasNull;
  }

  /** The predicate on {@code key} (a column reference, possibly qualified by an alias). */
  public Column on(Column key) {
    if (this == NONE) {
      return lit(true);
    }
    Column bounds;
    if (values != null) {
      bounds = values.length == 0 ? lit(false) : key.isin(values);
    } else {
      bounds = key.between(lit(low), lit(high));
    }
    return hasNull ? bounds.or(key.isNull()) : bounds;
  }
}
