package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;

import io.sluice.execution.ColumnNames;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;

/**
 * How a snapshot's rows meet the target's in a comparison: by their keys, and whether the
 * snapshot's keys are checked there (SEMANTICS §5.4: a key at most once, never NULL).
 *
 * <p>A checked comparison counts each key's rows with a window partitioned by the keys: the
 * comparison's join by the same keys needs the rows partitioned and sorted so anyway, so the
 * check costs no pass over the snapshot of its own. Its keys are then joined by plain
 * equality (a NULL key is refused, and a NULL-safe join would partition by other expressions
 * than the window's); a row that fails the check comes out of the comparison as refused.
 * Unchecked, NULL matches NULL and nothing is refused: for a snapshot checked beforehand.
 */
record SnapshotKeys(List<String> keys, boolean checked) {
  private static final String KEY_ROWS = "__sluice_key_rows";

  /** The snapshot's rows, with what the check needs beside them. */
  Dataset<Row> prepare(Dataset<Row> snapshot) {
    return checked ? snapshot.withColumn(KEY_ROWS, count(lit(1)).over(Window.partitionBy(ColumnNames.cols(keys)))) : snapshot;
  }

  /** The join of a target row (alias {@code target}) with a snapshot row (alias {@code snapshot}). */
  Column match(String target, String snapshot) {
    Column on = lit(true);
    for (String key : keys) {
      on = on.and(checked ? col(target, key).equalTo(col(snapshot, key)) : col(target, key).eqNullSafe(col(snapshot, key)));
    }
    return on;
  }

  /** True for a snapshot row (alias {@code snapshot}, prepared) that the check refuses: its key is NULL or not its own. */
  Column refused(String snapshot) {
    if (!checked) {
      return lit(false);
    }
    Column refused = col(snapshot, KEY_ROWS).gt(1);
    for (String key : keys) {
      refused = refused.or(col(snapshot, key).isNull());
    }
    return refused;
  }
}
