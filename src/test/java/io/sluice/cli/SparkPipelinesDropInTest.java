package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.TestPipeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project written for Apache Spark's {@code spark-pipelines} runs as it is: its spec file
 * named as that project names it, in a folder of the project, given with {@code --spec}; a
 * Python definition is refused by name instead of being skipped; {@code init --name}.
 */
class SparkPipelinesDropInTest {
  @TempDir Path project;

  /** The shape of a public spark-pipelines project: three materialized views over Parquet, the spec deep in src/. */
  private Path sparkPipelinesProject(String database) throws IOException {
    SparkSession spark = SharedSpark.session();
    Path sales = project.resolve("data/sales");
    spark.sql("SELECT * FROM VALUES ('north', 'tea', 3), ('north', 'cake', 4), ('south', 'tea', 5) AS s(region, product, amount)")
        .coalesce(1).write().parquet(sales.toString());
    Path folder = Files.createDirectories(project.resolve("src/pipelines/batch/sql/transformations"));
    Files.writeString(folder.resolve("sales.sql"),
        "CREATE MATERIALIZED VIEW sales AS SELECT * FROM parquet.`" + sales.toUri() + "`;\n");
    Files.writeString(folder.resolve("by_region.sql"),
        "CREATE MATERIALIZED VIEW by_region AS SELECT region, sum(amount) AS total FROM sales GROUP BY region;\n");
    Files.writeString(folder.resolve("top_region.sql"),
        "CREATE MATERIALIZED VIEW top_region AS SELECT region FROM by_region ORDER BY total DESC LIMIT 1;\n");
    return Files.writeString(folder.getParent().resolve("spark-pipelines.yaml"), """
        name: batch_sql
        storage: storage-root
        database: %s
        libraries:
          - glob:
              include: transformations/**
        """.formatted(database));
  }

  @Test
  void aSparkPipelinesProjectRunsWithItsSpecFile() throws IOException {
    Path spec = sparkPipelinesProject(TestPipeline.uniqueDatabase());

    CommandResult dryRun = IN_PROCESS.execute("dry-run", "--spec", spec.toString());
    assertEquals(0, dryRun.exit(), dryRun::toString);
    assertTrue(dryRun.stdout().contains("pipeline 'batch_sql' is valid: 3 datasets"), dryRun::toString);

    CommandResult run = IN_PROCESS.execute("run", "--spec", spec.toString());
    assertEquals(0, run.exit(), run::toString);
    assertTrue(run.stdout().contains("COMPLETED"), run::toString);
    // The spec's relative storage is its own folder's, as Spark's CLI reads it.
    assertTrue(Files.isDirectory(spec.getParent().resolve("storage-root")), run::toString);

    CommandResult totals = IN_PROCESS.execute("query", "--spec", spec.toString(), "--format", "csv",
        "SELECT region, total FROM by_region ORDER BY region");
    assertEquals(0, totals.exit(), totals::toString);
    assertEquals("region,total\nnorth,7\nsouth,5\n", totals.stdout());
    CommandResult top = IN_PROCESS.execute("query", "--spec", spec.toString(), "--format", "csv", "SELECT * FROM top_region");
    assertEquals("region\nnorth\n", top.stdout(), top::toString);
  }

  @Test
  void aFolderAndASpecTogetherAreAUsageError() throws IOException {
    Path spec = sparkPipelinesProject(TestPipeline.uniqueDatabase());

    CommandResult both = IN_PROCESS.execute("run", project.toString(), "--spec", spec.toString());

    assertEquals(2, both.exit(), both::toString);
    assertEquals(List.of("error: give the pipeline folder or --spec, not both (see 'sluice run --help')"), both.errorLines());
    assertFalse(Files.exists(spec.getParent().resolve("storage-root")), "nothing ran");

    CommandResult folder = IN_PROCESS.execute("dry-run", "--spec", spec.getParent().toString());
    assertEquals(1, folder.exit(), folder::toString);
    assertTrue(folder.stderr().contains("--spec names the folder " + spec.getParent() + ", not a spec file"), folder::toString);

    CommandResult missing = IN_PROCESS.execute("dry-run", "--spec", project.resolve("nope.yaml").toString());
    assertEquals(1, missing.exit(), missing::toString);
    assertTrue(missing.stderr().contains("SPEC_NOT_FOUND") && missing.stderr().contains("no spec file " + project.resolve("nope.yaml")),
        missing::toString);
  }

  @Test
  void aPythonDefinitionIsRefusedByNameAndNothingRuns() throws IOException {
    Path spec = sparkPipelinesProject(TestPipeline.uniqueDatabase());
    Files.writeString(spec.getParent().resolve("transformations/extra.py"),
        "from pyspark import pipelines as dp\n\n@dp.materialized_view\ndef extra():\n    return spark.range(3)\n");

    CommandResult run = IN_PROCESS.execute("run", "--spec", spec.toString());

    assertEquals(1, run.exit(), run::toString);
    assertTrue(run.stderr().contains("UNSUPPORTED_LIBRARY_FILE"), run::toString);
    assertTrue(run.stderr().contains("transformations/extra.py, which Sluice cannot run"), run::toString);
    assertFalse(Files.exists(spec.getParent().resolve("storage-root/warehouse")), "no table was written");
  }

  /** A hint names the pipeline as the command did: with --spec, not the working folder. */
  @Test
  void theSamplesHintNamesThePipelineAsTheCommandDid() throws IOException {
    Path spec = sparkPipelinesProject(TestPipeline.uniqueDatabase());
    Files.writeString(spec.getParent().resolve("transformations/bookings.sql"),
        "CREATE MATERIALIZED VIEW bookings AS SELECT * FROM wanderbricks.booking_updates;\n");

    CommandResult dryRun = IN_PROCESS.execute("dry-run", "--spec", spec.toString());

    assertEquals(1, dryRun.exit(), dryRun::toString);
    assertTrue(dryRun.stderr().contains("TABLE_OR_VIEW_NOT_FOUND"), dryRun::toString);
    assertTrue(dryRun.stderr().contains("the examples' sample tables come first: ")
        && dryRun.stderr().contains(" samples --spec " + spec), dryRun::toString);
  }

  @Test
  void initTakesTheNameAsSparkPipelinesDoes() {
    Path folder = project.resolve("shop");

    CommandResult init = IN_PROCESS.execute("init", folder.toString(), "--name", "My shop: v2");

    assertEquals(0, init.exit(), init::toString);
    assertTrue(init.stdout().contains("created pipeline 'My shop: v2' in " + folder), init::toString);
    // A name YAML would misread is quoted in the spec: the spec reads back as the name given.
    CommandResult dryRun = IN_PROCESS.run(folder, "dry-run");
    assertEquals(0, dryRun.exit(), dryRun::toString);
    assertTrue(dryRun.stdout().contains("pipeline 'My shop: v2' is valid"), dryRun::toString);

    CommandResult neither = IN_PROCESS.execute("init");
    assertEquals(2, neither.exit(), neither::toString);
    assertTrue(neither.stderr().contains("give the folder to create (DIR), or --name NAME"), neither::toString);

    for (String notAName : List.of("..", "a/b")) {
      CommandResult refused = IN_PROCESS.execute("init", "--name", notAName);
      assertEquals(2, refused.exit(), refused::toString);
      assertTrue(refused.stderr().contains("--name '" + notAName + "' is not a folder name"), refused::toString);
    }
  }

  /** A folder that has a .gitignore keeps it: init adds its storage to it. */
  @Test
  void initIntoAFolderKeepsItsGitignore() throws IOException {
    Path folder = Files.createDirectories(project.resolve("existing"));
    Files.writeString(folder.resolve(".gitignore"), "*.log");

    CommandResult init = IN_PROCESS.execute("init", folder.toString());

    assertEquals(0, init.exit(), init::toString);
    assertEquals("*.log\n.sluice/\n", Files.readString(folder.resolve(".gitignore")));
  }
}
