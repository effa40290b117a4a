package io.sluice.execution;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.Identifiers;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Shapes a flow's rows to its table: by name, in the table's column order, missing columns NULL. */
public final class TableWriter {
  private TableWriter() {}

  public static Dataset<Row> align(Dataset<Row> rows, StructType table) {
    return rows.select(columns(rows.schema(), table).toArray(Column[]::new));
  }

  /** The table's columns, each from the column of {@code rows} of its name (or NULL), cast to its type. */
  public static List<Column> columns(StructType rows, StructType table) {
    List<Column> columns = new ArrayList<>();
    for (StructField field : table.fields()) {
      Column value = Identifiers.field(rows, field.name()).map(f -> ColumnNames.col(f.name())).orElse(lit(null));
      columns.add(value.cast(field.dataType()).as(field.name()));
    }
    return columns;
  }
}
