package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import io.delta.tables.DeltaTable;
import io.sluice.common.Identifiers;
import io.sluice.delta.KeyedCommit;
import io.sluice.execution.ColumnNames;
import io.sluice.execution.KeyedWrites;
import io.sluice.execution.TableWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Brings some rows of a Delta table from a known "before" to an "after" with one commit that
 * sends only what differs: rows to insert, to update and to delete, matched on columns that
 * identify a row. Rows whose compared columns stay the same are not rewritten. Where the table takes a MERGE, each
 * target row meets at most one change, so the MERGE cannot see several source rows match one.
 */
final class KeyedDiff {
  static final String ACTION = "__sluice_action";
  static final String INSERT = "I";
  static final String UPDATE = "U";
  static final String DELETE = "D";
  /** A row of the after side whose key a check refused ({@link SnapshotKeys}): nothing may be written. */
  static final String REFUSED = "R";
  private static final String PRESENT = "__sluice_present";

  private KeyedDiff() {}

  /**
   * The changes from {@code before} to {@code after} (both with the same columns: the table's,
   * and any that only tell a change), as the after-row (the before-row for a delete) plus
   * {@link #ACTION}.
   *
   * @param match the columns that identify a row (NULL matches NULL)
   * @param compared the columns whose difference makes an update
   */
  static Dataset<Row> changes(Dataset<Row> before, Dataset<Row> after, List<String> match, List<String> compared) {
    return changes(before, after, SnapshotKeys.unchecked(match), compared);
  }

  /**
   * The changes from {@code before} to {@code after} as above, rows matched by {@code keys}; an
   * after-row that their check refuses comes as {@link #REFUSED}.
   */
  static Dataset<Row> changes(Dataset<Row> before, Dataset<Row> after, SnapshotKeys keys, List<String> compared) {
    Column same = lit(true);
    for (String column : compared) {
      same = same.and(col("b", column).eqNullSafe(col("a", column)));
    }
    Column action = when(col("a", PRESENT).isNotNull().and(keys.refused("a")), lit(REFUSED))
        .when(col("b", PRESENT).isNull(), lit(INSERT))
        .when(col("a", PRESENT).isNull(), lit(DELETE))
        .when(not(same), lit(UPDATE));
    List<Column> select = new ArrayList<>();
    for (String column : after.columns()) {
      select.add(when(action.equalTo(lit(DELETE)), col("b", column)).otherwise(col("a", column)).as(column));
    }
    select.add(action.as(ACTION));
    Dataset<Row> joined = before.withColumn(PRESENT, lit(true)).as("b")
        .join(after.withColumn(PRESENT, lit(true)).as("a"), keys.match("b", "a"), "full_outer");
    return joined.select(select.toArray(Column[]::new))
        .where(col(ACTION).isNotNull());
  }

  /** True for the changes of one {@code action} ({@link #INSERT}, {@link #UPDATE} or {@link #DELETE}). */
  static Column is(String action) {
    return col(ACTION).equalTo(lit(action));
  }

  /**
   * Applies {@code changes} to the target in one commit: the rows updated or deleted go, the
   * rows inserted or updated come ({@link KeyedCommit}); with a MERGE where the table needs one.
   *
   * @param scope a predicate on the target's rows (alias {@code t}) that holds for all the
   *     changed rows: literal bounds let Delta skip the files that cannot match
   * @param counts the rows inserted, updated and deleted, for the commit's history entry
   */
  static void write(KeyedWrites writes, SparkSession session, String table, StructType schema, Dataset<Row> changes,
      Column scope, List<String> match, long[] counts) {
    Optional<KeyedCommit> commit = writes.commit(session);
    if (commit.isEmpty()) {
      merge(DeltaTable.forName(session, table), changes, scope, match);
      return;
    }
    List<Column> going = new ArrayList<>(List.of(ColumnNames.cols(match)));
    going.add(when(is(UPDATE), lit(KeyedCommit.UPDATE_PREIMAGE)).otherwise(lit(KeyedCommit.DELETE))
        .as(KeyedCommit.CHANGE_TYPE));
    List<Column> coming = new ArrayList<>(TableWriter.columns(changes.schema(), schema));
    coming.add(when(is(UPDATE), lit(KeyedCommit.UPDATE_POSTIMAGE)).otherwise(lit(KeyedCommit.INSERT))
        .as(KeyedCommit.CHANGE_TYPE));
    commit.get()
        .removing(changes.where(is(UPDATE).or(is(DELETE))).select(going.toArray(Column[]::new)), match, scope)
        .appending(changes.where(is(INSERT).or(is(UPDATE))).select(coming.toArray(Column[]::new)))
        .parameter("matchedOn", String.join(", ", match))
        .metric("numTargetRowsInserted", counts[0])
        .metric("numTargetRowsUpdated", counts[1])
        .metric("numTargetRowsDeleted", counts[2])
        .commit();
  }

  /** Applies {@code changes} to {@code table} in one MERGE; {@code scope} as for {@link #write}. */
  private static void merge(DeltaTable table, Dataset<Row> changes, Column scope, List<String> match) {
    Column on = scope;
    for (String column : match) {
      on = on.and(col("t", column).eqNullSafe(col("s", column)));
    }
    Map<String, String> all = new LinkedHashMap<>();
    Map<String, String> updated = new LinkedHashMap<>();
    for (String column : changes.columns()) {
      if (column.equals(ACTION)) {
        continue;
      }
      all.put(Identifiers.quote(column), "s." + Identifiers.quote(column));
      if (!match.contains(column)) {
        updated.put(Identifiers.quote(column), "s." + Identifiers.quote(column));
      }
    }
    table.as("t").merge(changes.as("s"), on)
        .whenMatched("s." + ACTION + " = '" + DELETE + "'").delete()
        .whenMatched("s." + ACTION + " = '" + UPDATE + "'").updateExpr(updated)
        .whenNotMatched("s." + ACTION + " = '" + INSERT + "'").insertExpr(all)
        .execute();
  }
}
