package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.Observed;
import io.sluice.execution.ColumnNames;
import io.sluice.execution.Tally;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * How a snapshot's rows meet the target's in a comparison: by their keys, and whether the
 * snapshot's keys are checked there (SEMANTICS §5.4: a key at most once, never NULL) rather
 * than by a pass of their own beforehand.
 *
 * <p>A checked comparison joins the keys by plain equality and sends a snapshot row with a NULL
 * key as {@link KeyedDiff#REFUSED}. A key twice in the snapshot shows in what the comparison
 * reads anyway: a target row it has met two snapshot rows, so the join's output holds more
 * target rows than the target (both counted as the join reads them: Spark's observed metrics);
 * a key the target lacks comes out as two inserts. A window over the keys would say it row by
 * row, but cost a third of the comparison. Unchecked, NULL matches NULL and nothing is refused:
 * for a snapshot checked beforehand.
 */
final class SnapshotKeys {
  private final List<String> keys;
  private final Optional<Observed> targetRows;
  private final Optional<Observed> joinedTargetRows;

  private SnapshotKeys(List<String> keys, boolean checked) {
    this.keys = List.copyOf(keys);
    this.targetRows = checked ? Optional.of(new Observed("the target's rows")) : Optional.empty();
    this.joinedTargetRows = checked ? Optional.of(new Observed("the comparison's rows")) : Optional.empty();
  }

  /** Keys checked by the comparison: for one comparison only (it observes that comparison's reads). */
  static SnapshotKeys checked(List<String> keys) {
    return new SnapshotKeys(keys, true);
  }

  /** Keys checked beforehand. */
  static SnapshotKeys unchecked(List<String> keys) {
    return new SnapshotKeys(keys, false);
  }

  /** The target's rows that the comparison reads, counted as it reads them. */
  Dataset<Row> target(Dataset<Row> rows) {
    return targetRows.map(o -> o.of(rows, count(lit(1)))).orElse(rows);
  }

  /** The join of a target row (alias {@code target}) with a snapshot row (alias {@code snapshot}). */
  Column match(String target, String snapshot) {
    Column on = lit(true);
    for (String key : keys) {
      on = on.and(targetRows.isPresent() ? col(target, key).equalTo(col(snapshot, key)) : col(target, key).eqNullSafe(col(snapshot, key)));
    }
    return on;
  }

  /** The comparison's join, its target rows counted as it runs; {@code fromTarget} is true for a row with a target side. */
  Dataset<Row> joined(Dataset<Row> joined, Column fromTarget) {
    return joinedTargetRows.map(o -> o.of(joined, count_if(fromTarget))).orElse(joined);
  }

  /** True for a snapshot row (alias {@code snapshot}) that the check refuses on its own: a NULL key. */
  Column refused(String snapshot) {
    Column refused = lit(false);
    if (targetRows.isPresent()) {
      for (String key : keys) {
        refused = refused.or(col(snapshot, key).isNull());
      }
    }
    return refused;
  }

  /** Counts the keys the comparison's changes insert more than once, in the job that counts the changes. */
  Optional<Tally> insertedTwice(Dataset<Row> changes) {
    return targetRows.map(o -> Tally.of(changes.where(KeyedDiff.is(KeyedDiff.INSERT)).groupBy(ColumnNames.cols(keys)).count(),
        col("count").gt(1)));
  }

  /**
   * Whether the comparison met a key twice in the snapshot, once its job has run: a target row
   * met twice, or ({@code insertedTwice}, the count of {@link #insertedTwice}) a new key.
   */
  boolean metTwice(long insertedTwice) {
    if (targetRows.isEmpty()) {
      return false;
    }
    return insertedTwice > 0 || joinedTargetRows.get().figures().getLong(0) > targetRows.get().figures().getLong(0);
  }
}
