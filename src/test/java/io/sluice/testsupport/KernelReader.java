package io.sluice.testsupport;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.functions;

/**
 * Reads a Delta table with Delta Kernel, an implementation of the Delta protocol independent of
 * Delta's Spark connector (deletion vectors applied by Kernel itself), to check that a table Sluice
 * wrote is a plain Delta table. Rows come as strings in the form {@link #spark} gives Spark's, so
 * the two readers compare: timestamps as microseconds, dates as days.
 */
public final class KernelReader {
  private KernelReader() {}

  /** The rows of the Delta table at {@code location}, each as {@code [v1,v2,...]}, sorted. */
  public static List<String> rows(String location) {
    Engine engine = DefaultEngine.create(new Configuration());
    Snapshot snapshot = Table.forPath(engine, location).getLatestSnapshot(engine);
    Scan scan = snapshot.getScanBuilder().build();
    Row state = scan.getScanState(engine);
    StructType schema = snapshot.getSchema();
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> fileRows = files.next().getRows()) {
          while (fileRows.hasNext()) {
            read(engine, state, fileRows.next(), schema, rows);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows.stream().sorted().toList();
  }

  private static void read(Engine engine, Row state, Row file, StructType schema, List<String> rows) throws IOException {
    FileStatus status = InternalScanFileUtils.getAddFileStatus(file);
    CloseableIterator<FileReadResult> physical = engine.getParquetHandler().readParquetFiles(
        singleton(status), ScanStateRow.getPhysicalDataReadSchema(state), Optional.empty());
    CloseableIterator<ColumnarBatch> batches = physical.map(FileReadResult::getData);
    try (CloseableIterator<FilteredColumnarBatch> logical = Scan.transformPhysicalData(engine, state, file, batches)) {
      while (logical.hasNext()) {
        FilteredColumnarBatch batch = logical.next();
        ColumnarBatch data = batch.getData();
        for (int row = 0; row < data.getSize(); row++) {
          if (batch.getSelectionVector().isPresent() && !batch.getSelectionVector().get().getBoolean(row)) {
            continue;
          }
          List<String> values = new ArrayList<>();
          for (int column = 0; column < schema.length(); column++) {
            values.add(value(data.getColumnVector(column), schema.at(column).getDataType(), row));
          }
          rows.add("[" + String.join(",", values) + "]");
        }
      }
    }
  }

  private static String value(ColumnVector vector, DataType type, int row) {
    if (vector.isNullAt(row)) {
      return "null";
    }
    if (type instanceof IntegerType || type instanceof DateType) {
      return String.valueOf(vector.getInt(row));
    }
    if (type instanceof LongType || type instanceof TimestampType) {
      return String.valueOf(vector.getLong(row));
    }
    if (type instanceof StringType) {
      return vector.getString(row);
    }
    if (type instanceof BooleanType) {
      return String.valueOf(vector.getBoolean(row));
    }
    if (type instanceof DoubleType) {
      return String.valueOf(vector.getDouble(row));
    }
    throw new IllegalArgumentException("no test reads a column of type " + type);
  }

  /** The rows of {@code table} as Spark reads them, in the form of {@link #rows}. */
  public static List<String> spark(Dataset<org.apache.spark.sql.Row> table) {
    List<Column> columns = new ArrayList<>();
    for (org.apache.spark.sql.types.StructField field : table.schema().fields()) {
      Column column = functions.col("`" + field.name().replace("`", "``") + "`");
      if (field.dataType() instanceof org.apache.spark.sql.types.TimestampType) {
        column = functions.unix_micros(column);
      } else if (field.dataType() instanceof org.apache.spark.sql.types.DateType) {
        column = functions.unix_date(column);
      }
      columns.add(column);
    }
    return table.select(columns.toArray(Column[]::new)).collectAsList().stream()
        .map(org.apache.spark.sql.Row::toString).sorted().toList();
  }

  private static CloseableIterator<FileStatus> singleton(FileStatus status) {
    return io.delta.kernel.internal.util.Utils.singletonCloseableIterator(status);
  }
}
