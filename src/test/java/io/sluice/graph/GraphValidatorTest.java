package io.sluice.graph;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.expectations.Expectation;
import io.sluice.expectations.ViolationAction;
import io.sluice.sql.SqlDefinitionParser;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SEMANTICS §1.4 and §6.1: the graph checks that need no query analysed. */
class GraphValidatorTest {
  private static final String FILE = "defs.sql";

  private final GraphRegistry registry = new GraphRegistry("spark_catalog", "default");

  private DataflowGraph graph(String sql) {
    SqlDefinitionParser.parse(FILE, sql, registry, Path.of("/pipelines/p"));
    return registry.toGraph();
  }

  private SluiceException invalid(String sql) {
    DataflowGraph graph = graph(sql);
    return assertThrows(SluiceException.class, () -> GraphValidator.validateStructure(graph));
  }

  private static Origin at(int line) {
    return Origin.of(FILE, line);
  }

  private static DatasetName name(String table) {
    return new DatasetName("spark_catalog", "default", table);
  }

  @Test
  void validGraphPasses() {
    DataflowGraph graph = graph("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM(source);
        CREATE STREAMING TABLE all_orders (
          id BIGINT,
          CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW,
          CONSTRAINT positive EXPECT (id > 0)
        ) AS SELECT * FROM STREAM(raw);
        CREATE FLOW from_eu AS INSERT INTO ALL_ORDERS BY NAME SELECT * FROM STREAM(eu);
        CREATE FLOW from_us AS INSERT INTO default.all_orders BY NAME SELECT * FROM STREAM(us);
        CREATE MATERIALIZED VIEW totals (CONSTRAINT valid_id EXPECT (n > 0)) AS SELECT count(*) AS n FROM all_orders;
        CREATE TEMPORARY VIEW recent AS SELECT * FROM raw;
        CREATE VIEW report AS SELECT * FROM totals;
        CREATE STREAMING TABLE filled_by_flow;
        CREATE FLOW filler AS INSERT INTO filled_by_flow BY NAME SELECT * FROM STREAM(recent);
        """);

    assertDoesNotThrow(() -> GraphValidator.validateStructure(graph));
    assertEquals(3, graph.flowsInto(name("all_orders")).size());
  }

  @Test
  void flowIntoAnUndefinedTarget() {
    SluiceException e = invalid("""
        CREATE STREAMING TABLE orders AS SELECT * FROM STREAM(source);

        CREATE FLOW late
          AS INSERT INTO order BY NAME SELECT * FROM STREAM(source);
        """);

    assertEquals("FLOW_TARGET_NOT_DEFINED", e.errorClass());
    assertEquals(at(3), e.origin());
    assertTrue(e.getMessage().contains("'late'"), e.getMessage());
    assertTrue(e.getMessage().contains("'order'"), e.getMessage());
    assertTrue(e.userMessage().startsWith(FILE + ":3: "), e.userMessage());
  }

  @Test
  void flowTargetIsLookedUpInTheSchemaInForceWhereTheFlowIsDefined() {
    SluiceException e = invalid("""
        CREATE STREAMING TABLE orders;
        USE SCHEMA other;
        CREATE FLOW f AS INSERT INTO orders BY NAME SELECT * FROM STREAM(source);
        """);

    assertEquals("FLOW_TARGET_NOT_DEFINED", e.errorClass());
    assertEquals(at(3), e.origin());
  }

  @Test
  void explicitFlowIntoATemporaryView() {
    SluiceException e = invalid("""
        CREATE TEMPORARY VIEW v AS SELECT 1 AS x;
        CREATE FLOW f AS INSERT INTO v BY NAME SELECT 2 AS x;
        """);

    assertEquals("FLOW_INTO_VIEW", e.errorClass());
    assertEquals(at(2), e.origin());
    assertTrue(e.getMessage().contains("'f'"), e.getMessage());
  }

  @Test
  void explicitFlowIntoAPersistedView() {
    SluiceException e = invalid("""
        CREATE VIEW v AS SELECT 1 AS x;


        CREATE FLOW f AS INSERT INTO v BY NAME SELECT 2 AS x;
        """);

    assertEquals("FLOW_INTO_VIEW", e.errorClass());
    assertEquals(at(4), e.origin());
  }

  @Test
  void streamingTableWithoutQueryOrFlow() {
    SluiceException e = invalid("""
        CREATE MATERIALIZED VIEW m AS SELECT 1 AS x;
        -- declared, never filled
        CREATE STREAMING TABLE lonely (id BIGINT);
        """);

    assertEquals("DATASET_WITHOUT_FLOW", e.errorClass());
    assertEquals(at(3), e.origin());
    assertTrue(e.getMessage().contains("'lonely'"), e.getMessage());
  }

  @Test
  void materializedViewWithoutQueryOrFlow() {
    SluiceException e = invalid("CREATE MATERIALIZED VIEW m;");

    assertEquals("DATASET_WITHOUT_FLOW", e.errorClass());
    assertEquals(at(1), e.origin());
  }

  @Test
  void flowIntoAMaterializedViewThatHasAQuery() {
    SluiceException e = invalid("""
        CREATE MATERIALIZED VIEW m AS SELECT 1 AS x;
        CREATE FLOW extra AS INSERT INTO m BY NAME SELECT 2 AS x;
        """);

    assertEquals("MULTIPLE_FLOWS_INTO_MATERIALIZED_VIEW", e.errorClass());
    assertEquals(at(2), e.origin());
    assertTrue(e.getMessage().contains("'extra'"), e.getMessage());
  }

  /** The error points at the extra flow, wherever it stands in the file. */
  @Test
  void flowIntoAMaterializedViewDefinedFurtherDown() {
    SluiceException e = invalid("""
        CREATE FLOW extra AS INSERT INTO m BY NAME SELECT 2 AS x;

        CREATE MATERIALIZED VIEW m AS SELECT 1 AS x;
        """);

    assertEquals("MULTIPLE_FLOWS_INTO_MATERIALIZED_VIEW", e.errorClass());
    assertEquals(at(1), e.origin());
    assertTrue(e.getMessage().contains("'extra'"), e.getMessage());
  }

  @Test
  void twoExplicitFlowsIntoAMaterializedView() {
    SluiceException e = invalid("""
        CREATE MATERIALIZED VIEW m;
        CREATE FLOW one AS INSERT INTO m BY NAME SELECT 1 AS x;
        CREATE FLOW two AS INSERT INTO m BY NAME SELECT 2 AS x;
        """);

    assertEquals("MULTIPLE_FLOWS_INTO_MATERIALIZED_VIEW", e.errorClass());
    assertEquals(at(3), e.origin());
    assertTrue(e.getMessage().contains("'two'"), e.getMessage());
  }

  @Test
  void duplicateExpectationNamesIgnoringCase() {
    SluiceException e = invalid("""
        CREATE STREAMING TABLE t (
          id BIGINT,
          CONSTRAINT valid_id EXPECT (id IS NOT NULL),
          CONSTRAINT other EXPECT (id > 0),
          CONSTRAINT Valid_ID EXPECT (id < 100) ON VIOLATION DROP ROW
        ) AS SELECT * FROM STREAM(s);
        """);

    assertEquals("DUPLICATE_EXPECTATION", e.errorClass());
    assertEquals(at(5), e.origin());
    assertTrue(e.getMessage().contains("'t'"), e.getMessage());
    assertTrue(e.getMessage().toLowerCase().contains("valid_id"), e.getMessage());
  }

  @Test
  void duplicateExpectationInAMaterializedView() {
    SluiceException e = invalid("CREATE MATERIALIZED VIEW m (\n  CONSTRAINT a EXPECT (x > 0),\n"
        + "  CONSTRAINT `A` EXPECT (x < 9) ON VIOLATION FAIL UPDATE\n) AS SELECT 1 AS x");

    assertEquals("DUPLICATE_EXPECTATION", e.errorClass());
    assertEquals(at(3), e.origin());
  }

  @Test
  void checksWorkOnDefinitionsRegisteredWithoutSql() {
    Origin table = Origin.of("com.example.Defs", 12);
    Origin flow = Origin.of("com.example.Defs", 20);
    registry.register(DatasetDefinition.builder(name("t"), DatasetType.STREAMING_TABLE, table)
        .expectation(new Expectation("e", "x > 0", ViolationAction.WARN, table))
        .build());
    registry.register(new FlowDefinition(name("f"), name("u"), resolution -> null, FlowMode.APPEND, Map.of(), false, flow));

    SluiceException e = assertThrows(SluiceException.class, () -> GraphValidator.validateStructure(registry.toGraph()));

    assertEquals("FLOW_TARGET_NOT_DEFINED", e.errorClass());
    assertEquals(flow, e.origin());
    assertEquals("com.example.Defs:20: ", e.userMessage().substring(0, "com.example.Defs:20: ".length()));
    assertEquals(List.of(), registry.toGraph().flowsInto(name("t")));
  }
}
