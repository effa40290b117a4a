package io.sluice.execution;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The file layout of a large keyed append (a first load, above all): rows go out in ranges of
 * their keys, one range per file, so each file's statistics cover a narrow range of the first
 * key and the {@link KeyBounds} of later batches skip the files their keys are not in. Written
 * as they come, each file would hold keys from the whole key space, and every later batch
 * would read the whole table.
 */
public final class KeyClustering {
  /** The Spark setting for about how many rows each file of a clustered append holds. */
  public static final String ROWS_PER_FILE = "spark.sluice.keyClustering.rowsPerFile";
  private static final long DEFAULT_ROWS_PER_FILE = 250_000;

  private KeyClustering() {}

  /** {@code rows} (about {@code rowCount} of them) in key ranges, when there are more than fill one file. */
  public static Dataset<Row> byKeys(Dataset<Row> rows, List<String> keys, long rowCount) {
    String rowsPerFile = rows.sparkSession().conf().get(ROWS_PER_FILE, String.valueOf(DEFAULT_ROWS_PER_FILE));
    try {
      return byKeys(rows, keys, rowCount, Math.max(1, Long.parseLong(rowsPerFile.trim())));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(ROWS_PER_FILE + " must be a whole number of rows, not '" + rowsPerFile + "'", e);
    }
  }

  static Dataset<Row> byKeys(Dataset<Row> rows, List<String> keys, long rowCount, long rowsPerFile) {
    if (rowCount <= rowsPerFile) {
      return rows;
    }
    int files = (int) Math.min(Integer.MAX_VALUE, (rowCount + rowsPerFile - 1) / rowsPerFile);
    return rows.repartitionByRange(files, ColumnNames.cols(keys));
  }
}
