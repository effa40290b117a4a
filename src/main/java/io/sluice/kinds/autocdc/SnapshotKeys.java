package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.execution.ColumnNames;
import io.sluice.execution.Tally;
import io.sluice.graph.AutoCdcColumns;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * How a snapshot's rows meet the target's in a comparison: by their keys, and whether the
 * snapshot's keys are checked there (SEMANTICS §5.4: a key at most once, never NULL) rather
 * than by a pass of their own beforehand.
 *
 * <p>A checked comparison joins the keys by plain equality and sends a snapshot row with a NULL
 * key as {@link KeyedDiff#REFUSED}. A key twice in the snapshot shows in counts the comparison
 * makes anyway: a key the target lacks comes out as two inserts; a key the target has makes
 * more snapshot rows meet a target row than target rows meet a snapshot row. The snapshot's
 * rows are counted as the comparison reads them (with its expectations), the target's by a
 * narrow count in the job that counts the changes, and those that met nothing are the changes'
 * new keys and the target's keys the snapshot lacks. A window over the keys would say it row by
 * row but cost a third of the comparison, and counting the join's rows as it runs a sixth.
 * Unchecked, NULL matches NULL and nothing is refused: for a snapshot checked beforehand.
 */
final class SnapshotKeys {
  private final List<String> keys;
  private final boolean checked;
  private final boolean versions;

  private SnapshotKeys(List<String> keys, boolean checked, boolean versions) {
    this.keys = List.copyOf(keys);
    this.checked = checked;
    this.versions = versions;
  }

  /**
   * Keys checked by the comparison, of changes in {@link KeyedDiff#changes}' shape ({@code
   * versions} false) or {@link SnapshotHistory#changes}' (true). For one comparison.
   */
  static SnapshotKeys checked(List<String> keys, boolean versions) {
    return new SnapshotKeys(keys, true, versions);
  }

  /** Keys checked beforehand. */
  static SnapshotKeys unchecked(List<String> keys) {
    return new SnapshotKeys(keys, false, false);
  }

  /** The join of a target row (alias {@code target}) with a snapshot row (alias {@code snapshot}). */
  Column match(String target, String snapshot) {
    Column on = lit(true);
    for (String key : keys) {
      Column left = col(target, key);
      on = on.and(checked ? left.equalTo(col(snapshot, key)) : left.eqNullSafe(col(snapshot, key)));
    }
    return on;
  }

  /** True for a snapshot row (alias {@code snapshot}) that the check refuses on its own: a NULL key. */
  Column refused(String snapshot) {
    Column refused = lit(false);
    if (checked) {
      for (String key : keys) {
        refused = refused.or(col(snapshot, key).isNull());
      }
    }
    return refused;
  }

  /**
   * What the job that counts the comparison's {@code changes} counts for the check, none when
   * unchecked: the {@code target} rows it compared (for SCD type 2, the open versions), the keys
   * inserted more than once, the inserts of keys the target lacks, and the target's rows the
   * snapshot lacks.
   */
  List<Tally> tallies(Dataset<Row> target, Dataset<Row> changes) {
    if (!checked) {
      return List.of();
    }
    Dataset<Row> inserted = changes.where(KeyedDiff.is(KeyedDiff.INSERT));
    Dataset<Row> gone = changes.where(KeyedDiff.is(versions ? KeyedDiff.UPDATE : KeyedDiff.DELETE));
    if (versions) {
      // A new version of a key the target has comes with its old version closed; a continued one is not closed.
      gone = gone.where(col(AutoCdcColumns.END_AT).isNotNull());
      Dataset<Row> closed = gone;
      gone = closed.as("l").join(inserted.as("r"), match("l", "r"), "left_anti");
      inserted = inserted.as("l").join(closed.as("r"), match("l", "r"), "left_anti");
    }
    return List.of(Tally.of(target, lit(true)),
        Tally.of(changes.where(KeyedDiff.is(KeyedDiff.INSERT)).groupBy(ColumnNames.cols(keys)).count(), col("count").gt(1)),
        Tally.of(inserted, lit(true)), Tally.of(gone, lit(true)));
  }

  /**
   * Whether the comparison met a key twice in a snapshot of {@code snapshotRows} rows, once its
   * job has run; {@code tallied} holds the counts of {@link #tallies}.
   */
  boolean metTwice(List<long[]> tallied, long snapshotRows) {
    if (!checked) {
      return false;
    }
    long targetRows = tallied.get(0)[0];
    long newKeys = tallied.get(2)[0];
    long lackedKeys = tallied.get(3)[0];
    return tallied.get(1)[0] > 0 || snapshotRows - newKeys > targetRows - lackedKeys;
  }
}
