package io.sluice.cdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
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

  private SnapshotHistory() {}

  /**
   * @param open the open versions (with {@code __START_AT} and a NULL {@code __END_AT})
   * @param snapshot the snapshot's rows, in the table's columns without the version columns
   * @return the rows the open versions become, new versions included
   */
  static Dataset<Row> after(Dataset<Row> open, Dataset<Row> snapshot, Column version, AutoCdcColumns columns) {
    Column sameKey = lit(true);
    for (String key : columns.keys()) {
      sameKey = sameKey.and(col("o", key).eqNullSafe(col("s", key)));
    }
    Column sameTracked = lit(true);
    for (String value : columns.tracked()) {
      sameTracked = sameTracked.and(col("o", value).eqNullSafe(col("s", value)));
    }
    Column hasOld = col("o", OLD).isNotNull();
    Column hasNew = col("s", NEW).isNotNull();
    Column continues = hasNew.and(sameTracked);
    Dataset<Row> joined = open.withColumn(OLD, lit(true)).as("o")
        .join(snapshot.withColumn(NEW, lit(true)).as("s"), sameKey, "full_outer");
    List<Column> kept = new ArrayList<>();
    List<Column> opened = new ArrayList<>();
    for (String name : columns.targetSchema().fieldNames()) {
      if (name.equals(AutoCdcColumns.START_AT)) {
        kept.add(col("o", name).as(name));
        opened.add(version.as(name));
      } else if (name.equals(AutoCdcColumns.END_AT)) {
        kept.add(when(continues, lit(null)).otherwise(version).cast(columns.sequenceType()).as(name));
        opened.add(lit(null).cast(columns.sequenceType()).as(name));
      } else {
        boolean isKey = columns.keys().contains(name);
        kept.add((isKey ? col("o", name) : when(continues, col("s", name)).otherwise(col("o", name))).as(name));
        opened.add(col("s", name).as(name));
      }
    }
    Dataset<Row> previous = joined.where(hasOld).select(kept.toArray(Column[]::new));
    Dataset<Row> started = joined.where(hasNew.and(not(hasOld).or(not(sameTracked)))).select(opened.toArray(Column[]::new));
    return previous.unionByName(started);
  }
}
