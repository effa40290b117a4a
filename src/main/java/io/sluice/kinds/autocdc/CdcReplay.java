package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static io.sluice.kinds.autocdc.CdcEvents.DELETE;
import static io.sluice.kinds.autocdc.CdcEvents.OP;
import static io.sluice.kinds.autocdc.CdcEvents.SEQ;
import static io.sluice.kinds.autocdc.CdcEvents.UPSERT;
import static io.sluice.kinds.autocdc.CdcEvents.VALUES;
import static org.apache.spark.sql.functions.lag;
import static org.apache.spark.sql.functions.last;
import static org.apache.spark.sql.functions.lead;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import io.sluice.execution.ColumnNames;
import io.sluice.graph.AutoCdcColumns;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;

/**
 * Replays the known events of some keys in sequence order (SEMANTICS §4.2 to §4.6) into the
 * target rows those keys should have, and says which events the state store must keep for
 * later, late events to be placed correctly.
 *
 * @param kept the events to keep, per key
 * @param rows the keys' target rows
 */
record CdcReplay(Dataset<Row> kept, Dataset<Row> rows) {
  private static final String MERGED = "__sluice_merged";
  private static final String STARTS = "__sluice_starts";

  /**
   * SCD type 1: the last event decides. Without IGNORE NULL UPDATES only that event is kept
   * (a delete kept so is the tombstone); with it, every event since the last delete, since a
   * late upsert may still fill a column that later upserts left NULL.
   */
  static CdcReplay scd1(Dataset<Row> events, AutoCdcColumns columns) {
    WindowSpec byKey = Window.partitionBy(ColumnNames.cols(columns.keys()));
    Dataset<Row> kept;
    if (columns.ignoreNull().isEmpty()) {
      kept = events.withColumn("__sluice_last", max(col(SEQ)).over(byKey))
          .where(col(SEQ).equalTo(col("__sluice_last")))
          .drop("__sluice_last");
    } else {
      kept = events.withColumn("__sluice_last_delete", max(when(col(OP).equalTo(lit(DELETE)), col(SEQ))).over(byKey))
          .where(col("__sluice_last_delete").isNull().or(col(SEQ).geq(col("__sluice_last_delete"))))
          .drop("__sluice_last_delete");
    }
    Dataset<Row> last = merged(kept, columns, byKey);
    // Without IGNORE NULL UPDATES each key kept one event, its last: no second window is needed.
    if (!columns.ignoreNull().isEmpty()) {
      last = last.withColumn("__sluice_last", max(col(SEQ)).over(byKey)).where(col(SEQ).equalTo(col("__sluice_last")));
    }
    Dataset<Row> rows = last.where(col(OP).equalTo(lit(UPSERT))).select(targetColumns(columns, MERGED, List.of()));
    return new CdcReplay(kept, rows);
  }

  /**
   * Where a key's last event decides its row ({@link CdcEvents#lastEventDecides}): the rows of
   * the {@code kept} events, each with its sequence and {@code notStored} (whether the batch
   * brought it) as {@link CdcEvents#SEQ} and {@link CdcEvents#NOT_STORED}. A row whose event is
   * new changed, whatever its values: the stored events' values need not be read to tell.
   */
  static Dataset<Row> lastRows(Dataset<Row> kept, AutoCdcColumns columns, Column notStored) {
    return kept.where(col(OP).equalTo(lit(UPSERT))).select(targetColumns(columns, VALUES,
        List.of(col(SEQ).as(SEQ), notStored.as(CdcEvents.NOT_STORED))));
  }

  /**
   * SCD type 2: every event is kept. A version starts at an upsert that follows nothing, a
   * delete, or an upsert with other tracked values; it ends at the next event after its last
   * upsert (a delete or the next version's start), and shows the values of its last upsert,
   * so changes of untracked columns update it in place. Every window runs over a key's
   * events in sequence order, so one sort serves them all.
   */
  static CdcReplay scd2(Dataset<Row> events, AutoCdcColumns columns) {
    WindowSpec byKey = Window.partitionBy(ColumnNames.cols(columns.keys()));
    WindowSpec inOrder = byKey.orderBy(col(SEQ));
    Column tracked = struct(columns.tracked().stream().map(c -> col(MERGED, c)).toArray(Column[]::new));
    Column previousOp = lag(col(OP), 1).over(inOrder);
    Column starts = col(OP).equalTo(lit(UPSERT)).and(previousOp.isNull()
        .or(previousOp.equalTo(lit(DELETE)))
        .or(not(lag(tracked, 1).over(inOrder).eqNullSafe(tracked))));
    // A key's upserts fall in runs, one per version, each from an upsert that starts one.
    Column nextUpsertStarts = lead(col(STARTS), 1).over(inOrder);
    Dataset<Row> rows = merged(events, columns, byKey)
        .withColumn(STARTS, starts)
        .withColumn(AutoCdcColumns.START_AT,
            max(when(col(STARTS), col(SEQ))).over(inOrder.rowsBetween(Window.unboundedPreceding(), Window.currentRow())))
        .withColumn("__sluice_next", lead(col(SEQ), 1).over(inOrder))
        .where(col(OP).equalTo(lit(UPSERT)))
        .withColumn("__sluice_last", nextUpsertStarts.isNull().or(nextUpsertStarts))
        .where(col("__sluice_last"))
        .select(targetColumns(columns, MERGED, List.of(
            col(AutoCdcColumns.START_AT).as(AutoCdcColumns.START_AT), col("__sluice_next").as(AutoCdcColumns.END_AT))));
    return new CdcReplay(events, rows);
  }

  /**
   * Adds each upsert's values as they stand after it: a column under IGNORE NULL UPDATES
   * takes the last non-NULL value since the key's last delete.
   */
  private static Dataset<Row> merged(Dataset<Row> events, AutoCdcColumns columns, WindowSpec byKey) {
    WindowSpec upToHere = byKey.orderBy(col(SEQ)).rowsBetween(Window.unboundedPreceding(), Window.currentRow());
    if (columns.ignoreNull().isEmpty()) {
      return events.withColumn(MERGED, col(VALUES));
    }
    List<Column> segment = new ArrayList<>(List.of(ColumnNames.cols(columns.keys())));
    segment.add(col("__sluice_segment"));
    WindowSpec sinceDelete = Window.partitionBy(segment.toArray(Column[]::new)).orderBy(col(SEQ))
        .rowsBetween(Window.unboundedPreceding(), Window.currentRow());
    List<Column> values = new ArrayList<>();
    for (String value : columns.values()) {
      Column current = col(VALUES, value);
      Column merged = last(when(col(OP).equalTo(lit(UPSERT)), current), true).over(sinceDelete);
      values.add((columns.ignoreNull().contains(value) ? merged : current).as(value));
    }
    return events
        .withColumn("__sluice_segment", sum(when(col(OP).equalTo(lit(DELETE)), 1).otherwise(0)).over(upToHere))
        .withColumn(MERGED, struct(values.toArray(Column[]::new)))
        .drop("__sluice_segment");
  }

  /** The target's columns: the keys, then each value from the struct {@code values}, then {@code extra}. */
  private static Column[] targetColumns(AutoCdcColumns columns, String values, List<Column> extra) {
    List<Column> select = new ArrayList<>();
    for (String name : columns.targetSchema().fieldNames()) {
      if (columns.keys().contains(name)) {
        select.add(col(name).as(name));
      } else if (columns.values().contains(name)) {
        select.add(col(values, name).as(name));
      }
    }
    select.addAll(extra);
    return select.toArray(Column[]::new);
  }
}
