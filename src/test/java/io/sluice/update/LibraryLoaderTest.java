package io.sluice.update;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.expectations.Expectation;
import io.sluice.expectations.ViolationAction;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowDefinition;
import io.sluice.graph.GraphValidator;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecLoader;
import io.sluice.sql.SqlFlowQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SEMANTICS §1.1: what a spec's libraries define. */
class LibraryLoaderTest {
  private static final String SAMPLE = SamplePipelineDefinition.class.getName();

  @TempDir Path dir;

  private void file(String path, String text) throws IOException {
    Path file = dir.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private DataflowGraph load(String librariesYaml) throws IOException {
    return LibraryLoader.load(spec(librariesYaml));
  }

  private PipelineSpec spec(String librariesYaml) throws IOException {
    file("spark-pipeline.yml", "name: p\nstorage: storage\n" + librariesYaml);
    return SpecLoader.load(dir);
  }

  private SluiceException loadFails(String librariesYaml) throws IOException {
    PipelineSpec spec = spec(librariesYaml);
    return assertThrows(SluiceException.class, () -> LibraryLoader.load(spec));
  }

  private static DatasetName name(String table) {
    return new DatasetName("spark_catalog", "default", table);
  }

  /** A glob does not reach into the pipeline's storage, whose files change while an update starts. */
  @Test
  void globsLeaveThePipelinesStorageOut() throws IOException {
    file("transformations/a.sql", "CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;");
    file("storage/checkpoints/b.sql", "CREATE MATERIALIZED VIEW b AS SELECT 1 AS x;");
    PipelineSpec spec = spec("libraries:\n  - glob: {include: '**/*.sql'}\n");
    assertEquals(List.of(dir.resolve("transformations/a.sql")), LibraryLoader.expand(spec, (PipelineSpec.Glob) spec.libraries().get(0)));
  }

  @Test
  void doubleStarGlobMatchesFilesDirectlyInTheFolderAndInSubfoldersInSortedOrder() throws IOException {
    file("transformations/b.sql", "CREATE MATERIALIZED VIEW b AS SELECT 1 AS x;");
    file("transformations/c/d/y.sql", "CREATE MATERIALIZED VIEW y AS SELECT 1 AS x;");
    file("transformations/a/x.sql", "CREATE MATERIALIZED VIEW x AS SELECT 1 AS x;");
    file("transformations/notes.txt", "not sql");
    file("elsewhere.sql", "CREATE MATERIALIZED VIEW elsewhere AS SELECT 1 AS x;");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: transformations/**/*.sql\n");

    assertEquals(List.of("transformations/a/x.sql", "transformations/b.sql", "transformations/c/d/y.sql"),
        graph.flows().stream().map(f -> f.origin().source()).toList());
    assertEquals(List.of("x", "b", "y"), graph.flows().stream().map(f -> f.name().name()).toList());
    assertEquals(3, graph.datasets().size());
    assertFalse(graph.dataset(name("elsewhere")).isPresent());
  }

  @Test
  void sparkTemplateGlobPicksSqlFilesAndIgnoresOthers() throws IOException {
    file("transformations/one.sql", "CREATE MATERIALIZED VIEW one AS SELECT 1 AS x;");
    file("transformations/sub/two.sql", "CREATE MATERIALIZED VIEW two AS SELECT 1 AS x;");
    file("transformations/README.md", "# docs");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: transformations/**\n");

    assertEquals(List.of("one", "two"), graph.flows().stream().map(f -> f.name().name()).toList());
  }

  /**
   * A pipeline written for Spark's spark-pipelines may define flows in Python: skipped, they
   * would leave the pipeline without them and the run would still succeed.
   */
  @Test
  void aPythonOrNotebookDefinitionIsAnErrorNamingTheFile() throws IOException {
    file("transformations/one.sql", "CREATE MATERIALIZED VIEW one AS SELECT 1 AS x;");
    file("transformations/two.py", "from pyspark import pipelines as dp\n");

    SluiceException e = loadFails("libraries:\n  - glob:\n      include: transformations/**\n");

    assertEquals("UNSUPPORTED_LIBRARY_FILE", e.errorClass());
    assertEquals("transformations/two.py", e.origin().source());
    assertTrue(e.getMessage().contains("matches transformations/two.py, which Sluice cannot run: it runs SQL files (.sql)"
        + " and Java definitions"), e.getMessage());

    Files.delete(dir.resolve("transformations/two.py"));
    file("transformations/explore.IPYNB", "{}");
    assertEquals("UNSUPPORTED_LIBRARY_FILE",
        loadFails("libraries:\n  - glob:\n      include: transformations/**\n").errorClass());
  }

  /** Spark's own spec loader (Python pathlib) ignores "." segments, so "./dir/*.sql" works there. */
  @Test
  void globStartingWithDotSlash() throws IOException {
    file("transformations/one.sql", "CREATE MATERIALIZED VIEW one AS SELECT 1 AS x;");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: ./transformations/*.sql\n");

    assertTrue(graph.dataset(name("one")).isPresent());
  }

  /** Editors on Windows save UTF-8 with a byte order mark; it is not part of the SQL. */
  @Test
  void sqlFileWithByteOrderMark() throws IOException {
    file("defs.sql", "\uFEFFCREATE MATERIALIZED VIEW m AS SELECT 1 AS x;");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: defs.sql\n");

    assertEquals(Origin.of("defs.sql", 1), graph.dataset(name("m")).orElseThrow().origin());
  }

  @Test
  void sqlFileOriginsAndQueriesAreRelativeToThePipelineFolder() throws IOException {
    file("transformations/sub/orders.sql", "-- orders\n\nCREATE MATERIALIZED VIEW orders\nAS SELECT 1 AS x;");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: transformations/**/*.sql\n");

    DatasetDefinition orders = graph.dataset(name("orders")).orElseThrow();
    assertEquals(Origin.of("transformations/sub/orders.sql", 3), orders.origin());
    SqlFlowQuery query = (SqlFlowQuery) graph.flows().get(0).query();
    assertEquals("SELECT 1 AS x", query.text());
    assertEquals(Origin.of("transformations/sub/orders.sql", 4, 4), query.origin(), "where the query's text starts");
    assertEquals(dir.toAbsolutePath().normalize(), query.baseDir());
  }

  @Test
  void specCatalogAndDatabaseQualifySqlAndJavaNames() throws IOException {
    file("defs.sql", "CREATE MATERIALIZED VIEW from_sql AS SELECT 1 AS x;");
    file("spark-pipeline.yml", "name: p\nstorage: storage\ncatalog: cat\nschema: sales\nlibraries:\n"
        + "  - glob:\n      include: '*.sql'\n  - class: " + SAMPLE + "\n");

    DataflowGraph graph = LibraryLoader.load(SpecLoader.load(dir));

    assertEquals("cat", graph.defaultCatalog());
    assertEquals("sales", graph.defaultDatabase());
    assertTrue(graph.dataset(new DatasetName("cat", "sales", "from_sql")).isPresent());
    assertTrue(graph.dataset(new DatasetName("cat", "sales", "orders_clean")).isPresent());
    SqlFlowQuery query = (SqlFlowQuery) graph.flowsInto(new DatasetName("cat", "sales", "from_sql")).get(0).query();
    assertEquals("cat", query.catalog());
    assertEquals("sales", query.database());
  }

  @Test
  void withoutCatalogAndDatabaseTheDefaultsApply() throws IOException {
    file("defs.sql", "CREATE MATERIALIZED VIEW v AS SELECT 1 AS x;");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: defs.sql\n");

    assertEquals("spark_catalog", graph.defaultCatalog());
    assertEquals("default", graph.defaultDatabase());
    assertTrue(graph.dataset(name("v")).isPresent());
  }

  @Test
  void globMatchingNothingNamesThePattern() throws IOException {
    file("transformations/x.sql", "CREATE MATERIALIZED VIEW x AS SELECT 1 AS x;");

    SluiceException e = loadFails("libraries:\n  - glob:\n      include: transfromations/**/*.sql\n");

    assertEquals("GLOB_MATCHES_NOTHING", e.errorClass());
    assertTrue(e.userMessage().contains("transfromations/**/*.sql"), e.userMessage());
    assertTrue(e.userMessage().startsWith("spark-pipeline.yml"), e.userMessage());
  }

  @Test
  void unknownClassIsReported() throws IOException {
    SluiceException e = loadFails("libraries:\n  - class: com.example.DoesNotExist\n");

    assertEquals("CLASS_NOT_FOUND", e.errorClass());
    assertTrue(e.userMessage().contains("com.example.DoesNotExist"), e.userMessage());
  }

  @Test
  void classThatIsNotADefinitionIsReported() throws IOException {
    SluiceException e = loadFails("libraries:\n  - class: java.lang.String\n");

    assertEquals("NOT_A_PIPELINE_DEFINITION", e.errorClass());
    assertTrue(e.userMessage().contains("java.lang.String"), e.userMessage());
  }

  @Test
  void sqlSyntaxErrorInALibraryFileCitesThatFile() throws IOException {
    file("transformations/bad.sql", "CREATE MATERIALIZED VIEW ok AS SELECT 1;\n\nCREATE MATERIALISED VIEW bad AS SELECT 1;\n");

    SluiceException e = loadFails("libraries:\n  - glob:\n      include: transformations/*.sql\n");

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(Origin.of("transformations/bad.sql", 3, 8), e.origin());
  }

  @Test
  void javaDefinitionRegistersDatasetsAndFlows() throws IOException {
    DataflowGraph graph = load("libraries:\n  - class: " + SAMPLE + "\n");
    Map<String, Integer> lines = SourceLines.of(SamplePipelineDefinition.class);

    DatasetDefinition clean = graph.dataset(name("orders_clean")).orElseThrow();
    assertEquals(DatasetType.STREAMING_TABLE, clean.type());
    assertEquals(Origin.of(SAMPLE, lines.get("orders_clean")), clean.origin());
    assertEquals(Optional.of("valid orders"), clean.comment());
    assertEquals(List.of("day"), clean.partitionColumns());
    assertEquals(Map.of("pipelines.reset.allowed", "false"), clean.properties());
    assertFalse(clean.resetAllowed());
    assertEquals(List.of("valid_id", "positive_amount", "has_customer"),
        clean.expectations().stream().map(Expectation::name).toList());
    assertEquals(List.of("order_id IS NOT NULL", "amount > 0", "customer IS NOT NULL"),
        clean.expectations().stream().map(Expectation::condition).toList());
    assertEquals(List.of(ViolationAction.DROP, ViolationAction.FAIL, ViolationAction.WARN),
        clean.expectations().stream().map(Expectation::action).toList());
    for (Expectation expectation : clean.expectations()) {
      assertEquals(SAMPLE, expectation.origin().source());
    }

    DatasetDefinition totals = graph.dataset(name("daily_totals")).orElseThrow();
    assertEquals(DatasetType.MATERIALIZED_VIEW, totals.type());
    assertEquals(Optional.of("day DATE, total DECIMAL(10,2)"), totals.declaredSchema());
    assertEquals(Origin.of(SAMPLE, lines.get("daily_totals")), totals.origin());

    DatasetDefinition recent = graph.dataset(name("recent")).orElseThrow();
    assertEquals(DatasetType.TEMPORARY_VIEW, recent.type());
    assertEquals(Origin.of(SAMPLE, lines.get("recent")), recent.origin());

    DatasetDefinition all = graph.dataset(name("all_orders")).orElseThrow();
    assertEquals(DatasetType.STREAMING_TABLE, all.type());
    assertEquals(Origin.of(SAMPLE, lines.get("all_orders")), all.origin());
    assertEquals(4, graph.datasets().size());

    FlowDefinition implicit = graph.flowsInto(name("orders_clean")).get(0);
    assertTrue(implicit.implicit());
    assertEquals(name("orders_clean"), implicit.name());
    assertEquals(Origin.of(SAMPLE, lines.get("orders_clean")), implicit.origin());

    List<FlowDefinition> intoAll = graph.flowsInto(name("all_orders"));
    assertEquals(1, intoAll.size());
    FlowDefinition fromEu = intoAll.get(0);
    assertEquals(name("from_eu"), fromEu.name());
    assertFalse(fromEu.implicit());
    assertEquals(Origin.of(SAMPLE, lines.get("from_eu")), fromEu.origin());
    assertEquals(4, graph.flows().size());

    GraphValidator.validateStructure(graph);
  }

  /** An expectation's origin is the line of its own expect call, as a SQL CONSTRAINT's is its own line. */
  @Test
  void javaExpectationOriginIsItsOwnCall() throws IOException {
    DataflowGraph graph = load("libraries:\n  - class: " + SAMPLE + "\n");
    Map<String, Integer> lines = SourceLines.of(SamplePipelineDefinition.class);

    for (Expectation expectation : graph.dataset(name("orders_clean")).orElseThrow().expectations()) {
      assertEquals(Origin.of(SAMPLE, lines.get(expectation.name())), expectation.origin(), expectation.name());
    }
  }

  @Test
  void sqlAndJavaLibrariesShareOneGraph() throws IOException {
    file("raw.sql", "CREATE STREAMING TABLE orders_raw AS SELECT * FROM STREAM(source);");

    DataflowGraph graph = load("libraries:\n  - glob:\n      include: raw.sql\n  - class: " + SAMPLE + "\n");

    assertEquals(5, graph.datasets().size());
    GraphValidator.validateStructure(graph);
  }

  @Test
  void datasetDefinedInSqlAndJavaIsADuplicate() throws IOException {
    file("dup.sql", "CREATE MATERIALIZED VIEW Orders_Clean AS SELECT 1 AS x;");

    SluiceException e = loadFails("libraries:\n  - glob:\n      include: dup.sql\n  - class: " + SAMPLE + "\n");

    assertEquals("DUPLICATE_DATASET", e.errorClass());
    assertEquals(SAMPLE, e.origin().source());
    assertTrue(e.getMessage().contains("dup.sql:1"), e.getMessage());
  }

  /** The example that {@code sluice init} scaffolds loads and passes the structural checks. */
  @Test
  void quickstartExampleLoads() {
    PipelineSpec spec = SpecLoader.load(Path.of("examples/quickstart"));
    DataflowGraph graph = LibraryLoader.load(spec);

    assertEquals("quickstart", spec.name());
    assertEquals(spec.root().resolve(".sluice"), spec.storage().localFolder());
    assertEquals(DatasetType.STREAMING_TABLE, graph.dataset(name("orders_raw")).orElseThrow().type());
    assertEquals(3, graph.dataset(name("orders_clean")).orElseThrow().expectations().size());
    assertEquals(DatasetType.MATERIALIZED_VIEW, graph.dataset(name("customer_revenue")).orElseThrow().type());
    assertEquals(Origin.of("transformations/orders.sql", 3), graph.dataset(name("orders_raw")).orElseThrow().origin());
    assertEquals(1, graph.dataset(name("orders_raw")).orElseThrow().expectations().size(), "parsed: _rescued_data IS NULL");
    GraphValidator.validateStructure(graph);
  }

  /** Reads the {@code // @line:key} markers of a test source file. */
  static final class SourceLines {
    static Map<String, Integer> of(Class<?> type) throws IOException {
      Path source = Path.of("src/test/java", type.getName().replace('.', '/') + ".java");
      List<String> text = Files.readAllLines(source);
      Map<String, Integer> lines = new java.util.HashMap<>();
      for (int i = 0; i < text.size(); i++) {
        int at = text.get(i).indexOf("// @line:");
        if (at >= 0) {
          lines.put(text.get(i).substring(at + "// @line:".length()).trim(), i + 1);
        }
      }
      return lines;
    }
  }
}
