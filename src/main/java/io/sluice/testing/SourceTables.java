package io.sluice.testing;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.delta.NewTableSession;
import io.sluice.graph.ExternalSource;
import io.sluice.graph.ExternalSources;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Tables outside the pipeline that tests give rows to. A test writes only into a table the kit
 * made (marked by a table property), never into one it found: in {@code sluice test}'s own
 * session they are made from the tests' rows; a Java suite makes them with
 * {@link PipelineTest#createSourceTable}. Each test starts them empty.
 */
final class SourceTables {
  /** The property that marks a table the kit made, and may empty and write. */
  static final String MADE_BY_TESTS = "sluice.test.source";

  private SourceTables() {}

  /** A given source's name as a table's: {@code table a.b} or {@code a.b}. */
  static String tableName(String given) {
    String name = given.trim();
    return name.regionMatches(true, 0, "table ", 0, 6) ? name.substring(6).trim() : name;
  }

  /** Whether {@code given} names a table rather than files or a topic. */
  static boolean namesTable(String given) {
    String name = FileSource.normalise(given);
    return FileSource.path(name).isEmpty() && !name.startsWith("kafka ");
  }

  /**
   * Makes {@code table} with {@code schema} for tests, or empties it when the kit made it before.
   *
   * @throws SluiceException when a table of that name exists that the kit did not make
   */
  static void create(SparkSession spark, String table, StructType schema, Origin origin) {
    if (spark.catalog().tableExists(table)) {
      if (!madeByTests(spark, table)) {
        throw new SluiceException(ErrorClass.TEST_SOURCE_UNKNOWN, origin, "the table " + table + " exists in the session's catalog"
            + " and was not made for tests: a test writes only into tables made for it (run the tests in a session of their own)");
      }
      spark.sql("DROP TABLE " + table);
    }
    int dot = table.lastIndexOf('.');
    if (dot > 0) {
      spark.sql("CREATE NAMESPACE IF NOT EXISTS " + table.substring(0, dot));
    }
    NewTableSession.of(spark)
        .sql("CREATE TABLE " + table + " (" + schema.toDDL() + ") USING delta TBLPROPERTIES ('" + MADE_BY_TESTS + "' = 'true')");
  }

  /** Empties {@code table}, which the kit made: a test starts with no rows in it. */
  static void empty(SparkSession spark, String table) {
    create(spark, table, spark.table(table).schema(), Origin.UNKNOWN);
  }

  static boolean madeByTests(SparkSession spark, String table) {
    return !spark.sql("SHOW TBLPROPERTIES " + table).where("key = '" + MADE_BY_TESTS + "' AND value = 'true'").isEmpty();
  }

  /** The label {@code sluice graph} gives the table {@code name}, or empty when there is no such table. */
  static Optional<String> label(SparkSession spark, String name) {
    if (!spark.catalog().tableExists(name)) {
      return Optional.empty();
    }
    return ExternalSources.of(spark.table(name)).stream().map(ExternalSource::label).findFirst();
  }

  /** The schema rows given as {@code rows} would have: Spark's inference over them as JSON. */
  static StructType inferred(SparkSession spark, List<Map<String, Object>> rows) {
    List<String> lines = SourceFiles.jsonLines(rows).lines().toList();
    return spark.read().json(spark.createDataset(lines, Encoders.STRING())).schema();
  }

  /**
   * Appends {@code rows} to {@code table}, typed by its columns; a value that does not fit one fails.
   *
   * @throws SluiceException when the kit did not make the table
   */
  static void append(SparkSession spark, String table, List<Map<String, Object>> rows) {
    if (!madeByTests(spark, table)) {
      throw new SluiceException(ErrorClass.TEST_SOURCE_UNKNOWN, "rows cannot be given to the table " + table
          + ": it was not made for tests, and a test writes only into tables made for it (PipelineTest.createSourceTable)");
    }
    List<String> lines = SourceFiles.jsonLines(rows).lines().toList();
    spark.read().schema(spark.table(table).schema()).option("mode", "FAILFAST").json(spark.createDataset(lines, Encoders.STRING()))
        .write().insertInto(table);
  }
}
