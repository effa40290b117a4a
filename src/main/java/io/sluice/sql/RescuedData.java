package io.sluice.sql;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.filter;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.input_file_name;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map;
import static org.apache.spark.sql.functions.map_concat;
import static org.apache.spark.sql.functions.map_from_entries;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;
import static org.apache.spark.sql.functions.when;

import io.sluice.common.Identifiers;
import io.sluice.expectations.BatchQuality;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The rescued data column of {@code read_files} on JSON and CSV, as Databricks has it: a value
 * that does not parse into its column's type (a string in an INT field, a bad date) or a
 * record that does not parse at all (a truncated line) is not lost as a silent NULL. The row
 * gets {@code _rescued_data}, a JSON object: for JSON, the fields that did not parse with their
 * text; for a record that is not a JSON object, and for CSV, the whole record under
 * {@code _corrupt_record}; always the file under {@code _file_path}. Rows that parsed have NULL.
 *
 * <p>Spark's own corrupt-record column (the permissive parsers' {@code columnNameOfCorruptRecord})
 * marks the rows and keeps their text; this turns it into that object.
 */
final class RescuedData {
  /** The column's default name, and the one the run summary counts. */
  static final String DEFAULT_COLUMN = BatchQuality.RESCUED_DATA_COLUMN;
  /** The read_files argument naming the column; an empty name turns rescue off. Lower case: arguments are. */
  static final String OPTION = "rescueddatacolumn";
  private static final String RAW = "__sluice_raw_record";
  private static final Set<String> FORMATS = Set.of("json", "csv");

  private final String column;
  private final String format;

  private RescuedData(String column, String format) {
    this.column = column;
    this.format = format;
  }

  /**
   * The rescue of a read, if it has one: JSON and CSV in permissive mode (the default), unless
   * the option names no column. Removes the option from {@code options}.
   */
  static Optional<RescuedData> of(String format, Map<String, String> options) {
    String column = Optional.ofNullable(options.remove(OPTION)).orElse(DEFAULT_COLUMN).strip();
    String mode = options.getOrDefault("mode", "PERMISSIVE");
    boolean rescues = FORMATS.contains(format.toLowerCase(Locale.ROOT)) && !column.isEmpty()
        && mode.equalsIgnoreCase("PERMISSIVE") && !options.containsKey("columnnameofcorruptrecord");
    return rescues ? Optional.of(new RescuedData(column, format.toLowerCase(Locale.ROOT))) : Optional.empty();
  }

  /** The schema to read with: the user's (unless it already has the column) and Spark's raw record. */
  StructType readSchema(StructType schema) {
    return withoutOwnColumns(schema).add(RAW, DataTypes.StringType, true);
  }

  /** The reader options that make Spark keep each malformed record's text. */
  Map<String, String> readOptions(Map<String, String> options) {
    Map<String, String> read = new LinkedHashMap<>(options);
    read.put("columnNameOfCorruptRecord", RAW);
    return read;
  }

  /** The user's columns and the rescued data column, from a read with {@link #readSchema}. */
  Dataset<Row> project(Dataset<Row> read, StructType schema) {
    List<Column> columns = new ArrayList<>();
    for (StructField field : withoutOwnColumns(schema).fields()) {
      columns.add(col(Identifiers.quote(field.name())));
    }
    columns.add(rescued(withoutOwnColumns(schema)).as(column));
    return read.select(columns.toArray(Column[]::new));
  }

  private Column rescued(StructType schema) {
    Column raw = col(RAW);
    // Read only for a rescued row: a metadata column would be produced for every row of the scan.
    Column file = input_file_name();
    Column whole = map(lit("_corrupt_record"), raw, lit("_file_path"), file);
    if (!format.equals("json") || schema.fields().length == 0) {
      return when(raw.isNotNull(), to_json(whole));
    }
    // The record's fields as text; a field whose text is there but whose column is NULL did not parse.
    Column text = from_json(raw, DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType), Map.of());
    List<Column> entries = new ArrayList<>();
    for (StructField field : schema.fields()) {
      Column value = element_at(text, lit(field.name()));
      entries.add(when(col(Identifiers.quote(field.name())).isNull().and(value.isNotNull()),
          struct(lit(field.name()).as("key"), value.as("value"))));
    }
    Column unparsed = filter(array(entries.toArray(Column[]::new)), Column::isNotNull);
    Column fields = map_concat(map_from_entries(unparsed), map(lit("_file_path"), file));
    return when(raw.isNotNull(), to_json(when(size(unparsed).gt(0), fields).otherwise(whole)));
  }

  private StructType withoutOwnColumns(StructType schema) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (!field.name().equals(column) && !field.name().equals(RAW)) {
        fields.add(field);
      }
    }
    return new StructType(fields.toArray(StructField[]::new));
  }
}
