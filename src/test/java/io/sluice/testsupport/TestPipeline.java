package io.sluice.testsupport;

import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecLoader;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A pipeline folder made by a test, run in the shared session. Each one gets its own
 * database, so tests in one JVM do not see each other's tables.
 */
public final class TestPipeline {
  private final Path root;
  private final String database;

  public TestPipeline(Path root) {
    this.root = root;
    this.database = uniqueDatabase();
    libraries("- glob: {include: transformations/**/*.sql}");
  }

  /** A database name no other pipeline of the test JVM has. */
  public static String uniqueDatabase() {
    return "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  /** Rewrites the spec with these library entries, e.g. {@code "- class: com.x.Defs"}. */
  public TestPipeline libraries(String... entries) {
    StringBuilder spec = new StringBuilder("name: test\nstorage: .sluice\ndatabase: " + database + "\nlibraries:\n");
    for (String entry : entries) {
      spec.append("  ").append(entry).append("\n");
    }
    return write("spark-pipeline.yml", spec.toString());
  }

  public Path root() {
    return root;
  }

  public String database() {
    return database;
  }

  public TestPipeline write(String relativePath, String text) {
    Path file = root.resolve(relativePath);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  public TestPipeline sql(String text) {
    return write("transformations/pipeline.sql", text);
  }

  public PipelineSpec spec() {
    return SpecLoader.load(root);
  }

  public UpdateResult run() {
    return run(UpdateOptions.DEFAULT);
  }

  public UpdateResult run(UpdateOptions options) {
    return PipelineUpdate.run(spark(), spec(), options, List.of());
  }

  /**
   * The rows of a query in the pipeline's database, each as its {@code toString()}, sorted: easy
   * to compare. Run in a copy of the shared session, whose current database other tests running
   * beside this one would otherwise change between the choice and the query.
   */
  public List<String> rows(String sql) {
    SparkSession session = ((org.apache.spark.sql.classic.SparkSession) spark()).cloneSession();
    session.catalog().setCurrentDatabase(database);
    return session.sql(sql).collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  public SparkSession spark() {
    return SharedSpark.session();
  }
}
