package io.sluice.kinds.autocdc;

import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.execution.Tally;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.testsupport.SharedSpark;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The replay of change events, the diff of two sets of rows and snapshot history, each on a
 * few rows in memory: the rules of SEMANTICS §4 and §5 without a pipeline, a table or a
 * stream around them (the engine tests cover those).
 */
class CdcComponentsTest {
  private static final StructType ROW = new StructType().add("id", DataTypes.IntegerType).add("v", DataTypes.StringType);
  private static final StructType EVENT = new StructType()
      .add("id", DataTypes.IntegerType)
      .add(CdcEvents.SEQ, DataTypes.IntegerType)
      .add(CdcEvents.OP, DataTypes.StringType)
      .add(CdcEvents.VALUES, new StructType().add("v", DataTypes.StringType));
  private static final StructType VERSIONED = ROW
      .add(AutoCdcColumns.START_AT, DataTypes.IntegerType).add(AutoCdcColumns.END_AT, DataTypes.IntegerType);

  private final SparkSession spark = SharedSpark.session();

  @Test
  void scd1KeepsTheLastEventOfEachKeyAndItsDeleteAsATombstone() {
    CdcReplay replay = CdcReplay.scd1(events(
        upsert(1, 1, "a"), upsert(1, 3, "c"), delete(1, 2), upsert(2, 1, "x"), delete(2, 2)), columns(List.of(), false));
    assertEquals(List.of("[1,c]"), sorted(replay.rows()), "an earlier delete does not hide a later upsert");
    assertEquals(List.of("[1,3,U,[c]]", "[2,2,D,null]"), sorted(replay.kept()),
        "one event per key: the last, a delete included");
  }

  @Test
  void scd1WithIgnoreNullUpdatesKeepsTheLastValueSinceTheLastDelete() {
    CdcReplay replay = CdcReplay.scd1(events(
        upsert(1, 1, "a"), upsert(1, 2, null), delete(2, 1), upsert(2, 2, null), upsert(3, 1, "z"), delete(3, 2),
        upsert(3, 3, null)), columns(List.of("v"), false));
    assertEquals(List.of("[1,a]", "[2,null]", "[3,null]"), sorted(replay.rows()),
        "a NULL update keeps the value; nothing is kept across a delete");
    assertEquals(List.of("[1,1,U,[a]]", "[1,2,U,[null]]", "[2,1,D,null]", "[2,2,U,[null]]", "[3,2,D,null]",
        "[3,3,U,[null]]"), sorted(replay.kept()), "every event since the key's last delete");
  }

  @Test
  void scd2OpensAVersionWhereTrackedValuesChangeAndClosesItAtTheNextEvent() {
    CdcReplay replay = CdcReplay.scd2(events(
        upsert(1, 1, "a"), upsert(1, 2, "a"), upsert(1, 3, "b"), delete(1, 4), upsert(1, 6, "b")), columns(List.of(), true));
    assertEquals(List.of("[1,a,1,3]", "[1,b,3,4]", "[1,b,6,null]"), sorted(replay.rows()),
        "an upsert of the same values continues its version; a delete ends one");
  }

  @Test
  void theDiffSendsOnlyWhatChanged() {
    Dataset<Row> before = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(2, "b"), RowFactory.create(3, "c"),
        RowFactory.create(null, "n"));
    Dataset<Row> after = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(2, "B"), RowFactory.create(4, "d"),
        RowFactory.create(null, "n"));
    assertEquals(List.of("[2,B,U]", "[3,c,D]", "[4,d,I]"),
        sorted(KeyedDiff.changes(before, after, List.of("id"), List.of("v"))),
        "an unchanged row is not sent, a NULL key matches a NULL key, a delete carries the row it removes");
  }

  @Test
  void aCheckedComparisonRefusesANullKeyAndMeetsAKeyTwice() {
    Dataset<Row> before = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(2, "b"));
    Dataset<Row> after = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(1, "a"), RowFactory.create(2, "c"));
    SnapshotKeys keys = SnapshotKeys.checked(List.of("id"), false);
    Dataset<Row> changes = KeyedDiff.changes(before, after, keys, List.of("v"));
    assertEquals(List.of("[2,c,U]"), sorted(changes), "a key twice, each time unchanged, sends nothing");
    assertTrue(keys.metTwice(tallied(keys, before, changes), 3), "but the comparison met the target's row of key 1 twice");
    Dataset<Row> withNull = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(null, "n"));
    assertEquals(List.of("[2,b,D]", "[null,n,R]"), sorted(KeyedDiff.changes(before, withNull, SnapshotKeys.checked(List.of("id"), false),
        List.of("v"))), "a NULL key's row is refused");

    Dataset<Row> open = rows(VERSIONED, RowFactory.create(1, "a", 1, null), RowFactory.create(2, "b", 1, null),
        RowFactory.create(3, "c", 1, null));
    Dataset<Row> twice = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(1, "a"), RowFactory.create(2, "x"),
        RowFactory.create(4, "d"));
    SnapshotKeys history = SnapshotKeys.checked(List.of("id"), true);
    Dataset<Row> versions = SnapshotHistory.changes(open, twice, lit(5), columns(List.of(), true), history);
    assertEquals(List.of("[2,b,1,5,U]", "[2,x,5,null,I]", "[3,c,1,5,U]", "[4,d,5,null,I]"), sorted(versions));
    assertTrue(history.metTwice(tallied(history, open, versions), 4), "SCD 2 alike: a changed key, a gone one and a new one beside it");
    SnapshotKeys once = SnapshotKeys.checked(List.of("id"), true);
    Dataset<Row> sound = SnapshotHistory.changes(open, rows(ROW, RowFactory.create(1, "a"), RowFactory.create(2, "x"),
        RowFactory.create(4, "d")), lit(5), columns(List.of(), true), once);
    assertFalse(once.metTwice(tallied(once, open, sound), 3), "unique keys are not met twice");

    SnapshotKeys newKey = SnapshotKeys.checked(List.of("id"), false);
    Dataset<Row> inserts = KeyedDiff.changes(before, rows(ROW, RowFactory.create(3, "x"), RowFactory.create(3, "y")), newKey,
        List.of("v"));
    assertTrue(newKey.metTwice(tallied(newKey, before, inserts), 2), "a new key twice: inserted twice");
    SnapshotKeys unique = SnapshotKeys.checked(List.of("id"), false);
    Dataset<Row> updates = KeyedDiff.changes(before, rows(ROW, RowFactory.create(2, "x"), RowFactory.create(3, "y")), unique,
        List.of("v"));
    assertFalse(unique.metTwice(tallied(unique, before, updates), 2), "unique keys are not met twice");
  }

  @Test
  void aSnapshotClosesTheVersionsOfMissingAndChangedKeys() {
    Dataset<Row> open = rows(VERSIONED, RowFactory.create(1, "a", 1, null), RowFactory.create(2, "b", 1, null),
        RowFactory.create(3, "c", 1, null));
    Dataset<Row> snapshot = rows(ROW, RowFactory.create(1, "a"), RowFactory.create(2, "B"), RowFactory.create(4, "d"));
    assertEquals(List.of("[2,B,5,null,I]", "[2,b,1,5,U]", "[3,c,1,5,U]", "[4,d,5,null,I]"),
        sorted(SnapshotHistory.changes(open, snapshot, lit(5), columns(List.of(), true), SnapshotKeys.checked(List.of("id"), true))),
        "an unchanged version is not sent; a changed or missing key's version is closed (an update), a new one inserted");
  }

  @Test
  void aSnapshotUpdatesAnUntrackedColumnInItsOpenVersion() {
    StructType row = ROW.add("note", DataTypes.StringType);
    StructType versioned = row.add(AutoCdcColumns.START_AT, DataTypes.IntegerType).add(AutoCdcColumns.END_AT, DataTypes.IntegerType);
    Dataset<Row> open = rows(versioned, RowFactory.create(1, "a", "x", 1, null), RowFactory.create(2, "b", "x", 1, null));
    Dataset<Row> snapshot = rows(row, RowFactory.create(1, "a", "y"), RowFactory.create(2, "B", "y"));
    AutoCdcColumns columns = new AutoCdcColumns(List.of("id"), List.of("v", "note"), List.of("v"), List.of(),
        DataTypes.IntegerType, versioned, List.of());
    assertEquals(List.of("[1,a,y,1,null,U]", "[2,B,y,5,null,I]", "[2,b,x,1,5,U]"),
        sorted(SnapshotHistory.changes(open, snapshot, lit(5), columns, SnapshotKeys.checked(List.of("id"), true))),
        "TRACK HISTORY ON v: a new note alone stays in its version; a new v opens one");
  }

  private static AutoCdcColumns columns(List<String> ignoreNull, boolean history) {
    StructType target = history ? VERSIONED : ROW;
    return new AutoCdcColumns(List.of("id"), List.of("v"), List.of("v"), ignoreNull, DataTypes.IntegerType, target,
        List.of());
  }

  private Dataset<Row> events(Row... events) {
    return rows(EVENT, events);
  }

  private static Row upsert(int id, int seq, String v) {
    return RowFactory.create(id, seq, CdcEvents.UPSERT, RowFactory.create(v));
  }

  private static Row delete(int id, int seq) {
    return RowFactory.create(id, seq, CdcEvents.DELETE, null);
  }

  private Dataset<Row> rows(StructType schema, Row... rows) {
    return spark.createDataFrame(List.of(rows), schema);
  }

  private static List<long[]> tallied(SnapshotKeys keys, Dataset<Row> target, Dataset<Row> changes) {
    return List.of(Tally.countAll(keys.tallies(target, changes).toArray(Tally[]::new)));
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }
}
