package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.graph.DatasetName;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SparkJobs;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;

/**
 * An update killed while it created a table (SEMANTICS §7.4): Delta's first commit of the table
 * is in its folder, but the catalog never got the table. The next update creates it anyway; a
 * folder that holds rows is refused, naming it, and left as it was.
 */
class TableCreationTest {
  @TempDir Path dir;

  private TestPipeline pipeline() {
    return LostStateTest.withRaw(dir, """
        CREATE SINK copy USING delta OPTIONS (tableName = 'copied');
        CREATE FLOW to_copy AS INSERT INTO copy BY NAME SELECT id FROM STREAM(raw);
        """);
  }

  @Test
  void aTableAndASinkTableWhoseCreationWasKilledAreCreated() throws IOException {
    TestPipeline p = pipeline();
    Path raw = interruptedCreation(p, "raw");
    Path copied = interruptedCreation(p, "copied");

    UpdateResult result = p.run();
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM raw"));
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM copied"));
    assertFalse(Files.exists(raw.resolve("_delta_log/_commits/.leftover.tmp")), "the leftover is gone");
    assertFalse(Files.exists(copied.resolve("_delta_log/_commits/.leftover.tmp")), "the leftover is gone");
  }

  @Test
  void aFolderWithRowsIsRefusedAndKept() throws IOException {
    TestPipeline p = pipeline();
    Path raw = interruptedCreation(p, "raw");
    p.spark().sql("INSERT INTO delta.`" + raw + "` VALUES (7)");

    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("TABLE_FOLDER_NOT_EMPTY", e.errorClass());
    assertEquals("transformations/pipeline.sql:1", e.origin().toString());
    assertTrue(e.getMessage().contains("table 'raw' is not in the catalog, but its folder " + raw + " holds files"),
        e.getMessage());
    assertEquals(List.of("[7]"), p.rows("SELECT * FROM delta.`" + raw + "`"), "the folder's rows untouched");
  }

  /**
   * A new table is created without a Spark job (Delta lists an empty table's files in one by
   * default), and its first append costs what the next one does: the checksum the create left
   * holds the table's (empty) file list, from which the append derives its own.
   */
  @Test
  void aTableIsCreatedWithoutASparkJob() {
    SparkSession spark = SharedSpark.session();
    String database = TestPipeline.uniqueDatabase();
    spark.sql("CREATE NAMESPACE " + database);
    DatasetName name = new DatasetName("spark_catalog", database, "fresh");
    List<String> creation = SparkJobs.descriptions(spark, () -> TableCreation.create(spark, name, new Origin("x.sql", 1, 1),
        "CREATE TABLE " + name.quoted() + " (id INT) USING delta"));
    assertEquals(List.of(), creation);
    int first = SparkJobs.count(spark, () -> spark.sql("INSERT INTO " + name.quoted() + " VALUES (1)"));
    int second = SparkJobs.count(spark, () -> spark.sql("INSERT INTO " + name.quoted() + " VALUES (2)"));
    assertEquals(second, first, "the first append derives the file list from the create's checksum");
    assertEquals(List.of("[1]", "[2]"), spark.table(name.quoted()).collectAsList().stream().map(Object::toString).sorted().toList());
  }

  /**
   * What a creation killed after Delta's first commit leaves in the table's default folder: the
   * commit, the log's folders, a hidden temporary file of the log store.
   */
  private static Path interruptedCreation(TestPipeline p, String table) throws IOException {
    p.spark().sql("CREATE NAMESPACE IF NOT EXISTS " + p.database());
    Path folder = Path.of(p.spark().sessionState().catalog()
        .defaultTablePath(new TableIdentifier(table, Option.apply(p.database()))));
    p.spark().sql("CREATE TABLE delta.`" + folder + "` (id INT) USING delta");
    Files.createDirectories(folder.resolve("_delta_log/_commits"));
    Files.writeString(folder.resolve("_delta_log/_commits/.leftover.tmp"), "");
    return folder;
  }
}
