package io.sluice.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/** Where the rows a test gives one source in one update go, and how they are written there. */
sealed interface GivenTarget {
  /** Writes {@code rows} for the test whose copy of the pipeline is in {@code copy}. */
  void write(SparkSession spark, Path copy, List<Map<String, Object>> rows);

  /** A file of a file source, relative to the pipeline's folder. */
  record File(FileSource source, Path file) implements GivenTarget {
    @Override
    public void write(SparkSession spark, Path copy, List<Map<String, Object>> rows) {
      SourceFiles.write(spark, source, copy.resolve(file), rows);
    }
  }

  /** A table outside the pipeline, made for tests ({@link SourceTables}). */
  record Table(String table) implements GivenTarget {
    @Override
    public void write(SparkSession spark, Path copy, List<Map<String, Object>> rows) {
      SourceTables.append(spark, table, rows);
    }
  }
}
