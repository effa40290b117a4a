package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.Identifiers;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.RowOrdering$;
import org.apache.spark.sql.types.BooleanType$;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The clauses of an AUTO CDC flow resolved against its source's columns: which columns are
 * keys, which are kept, tracked and protected from NULL updates, the sequence's type and the
 * target's schema. Each clause that names something the source lacks fails here, with the
 * flow's origin.
 *
 * @param keys the key columns, spelled as in the source
 * @param values the kept columns that are not keys, in source order
 * @param tracked the values whose change opens a new version (SCD type 2)
 * @param ignoreNull the values whose NULL in an upsert keeps the stored value
 * @param warnings what the clauses name that is harmless but means nothing (SEMANTICS §5.7)
 */
public record AutoCdcColumns(
    List<String> keys, List<String> values, List<String> tracked, List<String> ignoreNull, DataType sequenceType,
    StructType targetSchema, List<String> warnings) implements FlowOutput {
  /** SCD type 2's version columns, of the sequence's type. */
  public static final String START_AT = "__START_AT";
  public static final String END_AT = "__END_AT";

  /** The resolved clauses of an AUTO CDC or FROM SNAPSHOT flow. */
  public static AutoCdcColumns of(ResolvedFlow flow) {
    if (flow.output() instanceof AutoCdcColumns columns) {
      return columns;
    }
    throw new IllegalStateException("flow '" + flow.name() + "' is not an AUTO CDC flow");
  }

  /** Their batches are change events (or snapshots), in the source's shape. */
  @Override
  public boolean changeEvents() {
    return true;
  }

  public static AutoCdcColumns resolve(SparkSession spark, FlowDefinition flow, FlowMode.AutoCdc mode, StructType source) {
    Origin origin = flow.origin();
    String name = "AUTO CDC flow '" + flow.name() + "'";
    List<String> keys = keys(mode.keys(), source, origin, name);
    DataType sequenceType;
    try {
      sequenceType = SparkPlans.empty(spark, source, false).select(mode.sequence()).schema().fields()[0].dataType();
    } catch (Exception e) {
      throw new GraphException(ErrorClass.AUTO_CDC_SEQUENCE_NOT_FOUND, origin, name + ": SEQUENCE BY " + mode.sequence()
          + " does not resolve against the source's columns: " + SparkErrors.firstLine(e), e);
    }
    if (!RowOrdering$.MODULE$.isOrderable(sequenceType)) {
      throw new GraphException(ErrorClass.AUTO_CDC_SEQUENCE_NOT_ORDERABLE, origin, name + ": SEQUENCE BY "
          + mode.sequence() + " is of type " + sequenceType.simpleString() + ", which cannot be ordered");
    }
    mode.deleteWhen().ifPresent(c -> checkCondition(spark, source, c, "APPLY AS DELETE WHEN", origin, name));
    mode.truncateWhen().ifPresent(c -> checkCondition(spark, source, c, "APPLY AS TRUNCATE WHEN", origin, name));
    mustExist(source, mode.columns(), "COLUMNS", origin, name);
    List<StructField> kept = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (StructField field : source.fields()) {
      boolean isKey = keys.stream().anyMatch(k -> Identifiers.sameColumn(k, field.name()));
      if (!isKey && !mode.columns().includes(field.name())) {
        continue;
      }
      if (!isKey) {
        checkComparable(field, origin, name);
      }
      kept.add(new StructField(field.name(), field.dataType(), true, field.metadata()));
      if (!isKey) {
        values.add(field.name());
      }
    }
    for (String key : keys) {
      if (!mode.columns().includes(key)) {
        throw new GraphException(ErrorClass.AUTO_CDC_KEY_NOT_SELECTED, origin,
            name + ": COLUMNS " + mode.columns() + " leaves out key '" + key + "'; the target must keep its keys");
      }
    }
    StructType keptSchema = new StructType(kept.toArray(StructField[]::new));
    mustExist(keptSchema, mode.ignoreNullUpdates(), "IGNORE NULL UPDATES ON", origin, name);
    List<String> tracked = values;
    List<String> warnings = new ArrayList<>();
    if (mode.scdType().keepsHistory()) {
      tracked = tracked(source, keptSchema, values, mode.trackHistory(), origin, name, warnings);
      addVersionColumns(kept, keptSchema, sequenceType, origin, name + ": the source");
    }
    List<String> ignoreNull = values.stream().filter(mode.ignoreNullUpdates()::includes).toList();
    return new AutoCdcColumns(List.copyOf(keys), List.copyOf(values), List.copyOf(tracked), ignoreNull, sequenceType,
        new StructType(kept.toArray(StructField[]::new)), List.copyOf(warnings));
  }

  /**
   * The columns of an AUTO CDC FROM SNAPSHOT flow: every column of the snapshot is kept;
   * the versions take the place of the sequence.
   */
  public static AutoCdcColumns resolveSnapshot(
      FlowDefinition flow, FlowMode.AutoCdcFromSnapshot mode, StructType snapshot, DataType versionType) {
    Origin origin = flow.origin();
    String name = "AUTO CDC FROM SNAPSHOT flow '" + flow.name() + "'";
    if (!RowOrdering$.MODULE$.isOrderable(versionType) || versionType instanceof StructType
        || versionType instanceof NullType) {
      throw new GraphException(ErrorClass.SNAPSHOT_VERSION_NOT_ORDERABLE, origin, name + ": its versions are of type "
          + versionType.simpleString() + "; a version must be a single value that can be ordered (a number, string,"
          + " date or timestamp)");
    }
    List<String> keys = keys(mode.keys(), snapshot, origin, name);
    List<StructField> kept = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (StructField field : snapshot.fields()) {
      if (!keys.contains(field.name())) {
        checkComparable(field, origin, name);
        values.add(field.name());
      }
      kept.add(new StructField(field.name(), field.dataType(), true, field.metadata()));
    }
    List<String> tracked = values;
    List<String> warnings = new ArrayList<>();
    if (mode.scdType().keepsHistory()) {
      tracked = tracked(snapshot, snapshot, values, mode.trackHistory(), origin, name, warnings);
      addVersionColumns(kept, snapshot, versionType, origin, name + ": the snapshot");
    }
    return new AutoCdcColumns(List.copyOf(keys), List.copyOf(values), List.copyOf(tracked), List.of(), versionType,
        new StructType(kept.toArray(StructField[]::new)), List.copyOf(warnings));
  }

  private static List<String> keys(List<String> declared, StructType source, Origin origin, String name) {
    List<String> keys = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String key : declared) {
      if (!seen.add(Identifiers.columnKey(key))) {
        throw new GraphException(ErrorClass.AUTO_CDC_REPEATED_KEY, origin, name + " names key '" + key + "' twice");
      }
      StructField field = field(source, key, ErrorClass.AUTO_CDC_KEY_NOT_FOUND, origin, name + ": key");
      if (!RowOrdering$.MODULE$.isOrderable(field.dataType())) {
        throw new GraphException(ErrorClass.AUTO_CDC_KEY_NOT_ORDERABLE, origin, name + ": key '" + key + "' is of type "
            + field.dataType().simpleString() + ", which cannot be compared and sorted; choose another key");
      }
      keys.add(field.name());
    }
    return keys;
  }

  /** Changes are found by comparing stored and new values, which Spark cannot do for maps. */
  private static void checkComparable(StructField field, Origin origin, String name) {
    if (!RowOrdering$.MODULE$.isOrderable(field.dataType())) {
      throw new GraphException(ErrorClass.AUTO_CDC_COLUMN_NOT_COMPARABLE, origin, name + ": column '" + field.name()
          + "' is of type " + field.dataType().simpleString() + ", whose values cannot be compared; leave it out"
          + " or turn it into a comparable type (e.g. to_json)");
    }
  }

  /**
   * The tracked values. {@code * EXCEPT} naming a column of the source that COLUMNS already
   * left out is accepted, as Databricks does, with a warning: excluding it changes nothing.
   */
  private static List<String> tracked(StructType source, StructType kept, List<String> values,
      ColumnSelection trackHistory, Origin origin, String name, List<String> warnings) {
    for (String column : trackHistory.names()) {
      if (!Identifiers.hasField(kept, column) && trackHistory.kind() == ColumnSelection.Kind.EXCEPT && Identifiers.hasField(source, column)) {
        warnings.add(name + ": TRACK HISTORY ON " + trackHistory + " names '" + column
            + "', which COLUMNS already leaves out of the target; it changes nothing");
      } else {
        field(kept, column, ErrorClass.AUTO_CDC_COLUMN_NOT_FOUND, origin, name + ": TRACK HISTORY ON names");
      }
    }
    return values.stream().filter(trackHistory::includes).toList();
  }

  private static void addVersionColumns(
      List<StructField> kept, StructType source, DataType type, Origin origin, String owner) {
    for (String reserved : List.of(START_AT, END_AT)) {
      if (Identifiers.hasField(source, reserved)) {
        throw new GraphException(ErrorClass.AUTO_CDC_RESERVED_COLUMN, origin, owner + " has a column '"
            + reserved + "', which SCD type 2 adds itself; leave it out or rename it");
      }
    }
    kept.add(new StructField(START_AT, type, true, Metadata.empty()));
    kept.add(new StructField(END_AT, type, true, Metadata.empty()));
  }

  private static void checkCondition(
      SparkSession spark, StructType source, String condition, String clause, Origin origin, String name) {
    DataType type;
    try {
      type = SparkPlans.empty(spark, source, false).selectExpr(condition).schema().fields()[0].dataType();
    } catch (Exception e) {
      throw new GraphException(ErrorClass.AUTO_CDC_INVALID_CONDITION, origin, name + ": " + clause + " " + condition
          + " is not valid on the source's columns: " + SparkErrors.firstLine(e), e);
    }
    if (!type.equals(BooleanType$.MODULE$)) {
      throw new GraphException(ErrorClass.AUTO_CDC_INVALID_CONDITION, origin, name + ": " + clause + " " + condition
          + " is of type " + type.simpleString() + ", not a condition (BOOLEAN)");
    }
  }

  private static void mustExist(StructType schema, ColumnSelection selection, String clause, Origin origin, String name) {
    for (String column : selection.names()) {
      field(schema, column, ErrorClass.AUTO_CDC_COLUMN_NOT_FOUND, origin, name + ": " + clause + " names");
    }
  }

  private static StructField field(StructType schema, String column, ErrorClass errorClass, Origin origin, String what) {
    return Identifiers.field(schema, column).orElseThrow(() -> new GraphException(errorClass, origin, what + " '"
        + column + "', which is not a column of the source; it has " + String.join(", ", schema.fieldNames())));
  }
}
