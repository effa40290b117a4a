package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.when;

import io.sluice.graph.AutoCdcColumns;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * SCD type 2 under snapshots (SEMANTICS §5.3): what a table's open versions become when a
 * snapshot at version {@code v} arrives. A key the snapshot lacks has its version closed at
 * {@code v}; a key whose tracked columns changed has its version closed and a new one opened
 * at {@code v}; a key whose tracked columns are the same keeps its version, with the
 * snapshot's other values; a new key opens a version.
 */
final class SnapshotHistory {
  private static final String OLD = "__sluice_old";
  private static final String NEW = "__sluice_new";
  private static final String CHANGE = "__sluice_change";

  private SnapshotHistory() {}

  /**
   * The changes that bring the open versions there, in the shape of {@link KeyedDiff#changes}
   * matched on the keys and {@code __START_AT}: a closed or continued version is an update of
   * its row, a new version an insert. One join of the open versions with the snapshot finds
   * them all; unchanged versions are not sent.
   *
   * @param open the open versions (with {@code __START_AT} and a NULL {@code __END_AT})
   * @param snapshot the snapshot's rows, in the table's columns without the version columns
   * @param keys how they meet: a snapshot row their check refuses comes as {@link KeyedDiff#REFUSED}
   */
  static Dataset<Row> changes(Dataset<Row> open, Dataset<Row> snapshot, Column version, AutoCdcColumns columns,
      SnapshotKeys keys) {
    Column sameTracked = lit(true);
    Column sameValues = lit(true);
    for (String name : columns.targetSchema().fieldNames()) {
      boolean versionColumn = name.equals(AutoCdcColumns.START_AT) || name.equals(AutoCdcColumns.END_AT);
      if (!versionColumn && !columns.keys().contains(name)) {
        Column same = col("o", name).eqNullSafe(col("s", name));
        sameValues = sameValues.and(same);
        if (columns.tracked().contains(name)) {
          sameTracked = sameTracked.and(same);
        }
      }
    }
    Column hasOld = col("o", OLD).isNotNull();
    Column hasNew = col("s", NEW).isNotNull();
    Column continues = hasNew.and(sameTracked);
    Dataset<Row> joined = open.withColumn(OLD, lit(true)).as("o")
        .join(snapshot.withColumn(NEW, lit(true)).as("s"), keys.match("o", "s"), "full_outer");
    List<Column> kept = new ArrayList<>();
    for (String name : columns.targetSchema().fieldNames()) {
      if (name.equals(AutoCdcColumns.START_AT)) {
        kept.add(col("o", name).as(name));
      } else if (name.equals(AutoCdcColumns.END_AT)) {
        kept.add(when(continues, lit(null)).otherwise(version).cast(columns.sequenceType()).as(name));
      } else {
        boolean isKey = columns.keys().contains(name);
        kept.add((isKey ? col("o", name) : when(continues, col("s", name)).otherwise(col("o", name))).as(name));
      }
    }
    kept.add(lit(KeyedDiff.UPDATE).as(KeyedDiff.ACTION));
    List<Column> opened = opened("s", version, columns);
    opened.add(when(keys.refused("s"), lit(KeyedDiff.REFUSED)).otherwise(lit(KeyedDiff.INSERT)).as(KeyedDiff.ACTION));
    // A joined row gives its closed or continued version, its new version, both or neither:
    // each as an element of an array, so the join runs once for both.
    Column refused = hasNew.and(keys.refused("s"));
    Column updated = when(hasOld.and(not(refused)).and(not(continues.and(sameValues))), struct(kept.toArray(Column[]::new)));
    Column started = when(refused.or(hasNew.and(not(hasOld).or(not(sameTracked)))), struct(opened.toArray(Column[]::new)));
    List<Column> fields = new ArrayList<>();
    for (String name : columns.targetSchema().fieldNames()) {
      fields.add(col(CHANGE, name).as(name));
    }
    fields.add(col(CHANGE, KeyedDiff.ACTION).as(KeyedDiff.ACTION));
    return joined.select(explode(array(updated, started)).as(CHANGE))
        .where(col(CHANGE).isNotNull())
        .select(fields.toArray(Column[]::new));
  }

  /**
   * The row of a version that a snapshot's row (alias {@code snapshot}) opens: its values, in
   * the table's columns, from the snapshot's {@code version} on (for SCD type 1, just its values).
   */
  static List<Column> opened(String snapshot, Column version, AutoCdcColumns columns) {
    List<Column> row = new ArrayList<>();
    for (String name : columns.targetSchema().fieldNames()) {
      if (name.equals(AutoCdcColumns.START_AT)) {
        row.add(version.as(name));
      } else if (name.equals(AutoCdcColumns.END_AT)) {
        row.add(lit(null).cast(columns.sequenceType()).as(name));
      } else {
        row.add(col(snapshot, name).as(name));
      }
    }
    return row;
  }
}
