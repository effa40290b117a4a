package io.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.expectations.Expectation;
import io.sluice.expectations.ViolationAction;
import io.sluice.graph.ColumnSelection;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowDefinition;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphRegistry;
import io.sluice.graph.ScdType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;

/** The SQL statements of a pipeline file, registered without a Spark session. */
class SqlDefinitionParserTest {
  private static final String FILE = "transformations/defs.sql";
  private static final Path BASE = Path.of("/pipelines/p");

  private final GraphRegistry registry = new GraphRegistry("spark_catalog", "default");

  private DataflowGraph parse(String sql) {
    return parse(FILE, sql);
  }

  private DataflowGraph parse(String file, String sql) {
    SqlDefinitionParser.parse(file, sql, registry, BASE);
    return registry.toGraph();
  }

  private SluiceException fails(String sql) {
    return assertThrows(SluiceException.class, () -> parse(sql));
  }

  private static DatasetName name(String table) {
    return new DatasetName("spark_catalog", "default", table);
  }

  private static DatasetDefinition dataset(DataflowGraph graph, String table) {
    return graph.dataset(name(table)).orElseThrow(() -> new AssertionError("no dataset " + table + " in " + graph.datasets().keySet()));
  }

  private static FlowDefinition flow(DataflowGraph graph, String flow) {
    return flow(graph, name(flow));
  }

  private static FlowDefinition flow(DataflowGraph graph, DatasetName flow) {
    return graph.flows().stream().filter(f -> f.name().equals(flow)).findFirst()
        .orElseThrow(() -> new AssertionError("no flow " + flow + " in " + graph.flows()));
  }

  private static SqlFlowQuery query(FlowDefinition flow) {
    return (SqlFlowQuery) flow.query();
  }

  private static Origin at(int line) {
    return Origin.of(FILE, line);
  }

  /** The file and line of an origin: queries and syntax errors also have a column, checked where it matters. */
  private static Origin lineOf(Origin origin) {
    return Origin.of(origin.source(), origin.line());
  }

  // ---------------------------------------------------------------- statement forms

  @Test
  void streamingTableWithColumnsExpectationsAndEveryClause() {
    DataflowGraph graph = parse("""
        -- cleaned orders
        CREATE OR REFRESH STREAMING TABLE orders (
          id BIGINT NOT NULL,
          amount DECIMAL(10,2) COMMENT 'net, in EUR',
          CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW,
          customer STRING,
          CONSTRAINT positive EXPECT (amount > 0 AND (customer IN ('a', 'b'))) ON VIOLATION FAIL UPDATE,
          CONSTRAINT has_customer EXPECT (customer IS NOT NULL)
        )
        COMMENT 'Orders; cleaned'
        PARTITIONED BY (customer)
        TBLPROPERTIES ('pipelines.reset.allowed' = 'false', delta.appendOnly = 'true')
        AS SELECT * FROM STREAM(raw_orders);
        """);

    DatasetDefinition orders = dataset(graph, "orders");
    assertEquals(DatasetType.STREAMING_TABLE, orders.type());
    assertEquals(at(2), lineOf(orders.origin()));
    assertEquals(Optional.of("id BIGINT NOT NULL, amount DECIMAL(10,2) COMMENT 'net, in EUR', customer STRING"),
        orders.declaredSchema());
    assertEquals(List.of(
            new Expectation("valid_id", "id IS NOT NULL", ViolationAction.DROP, at(5)),
            new Expectation("positive", "amount > 0 AND (customer IN ('a', 'b'))", ViolationAction.FAIL, at(7)),
            new Expectation("has_customer", "customer IS NOT NULL", ViolationAction.WARN, at(8))),
        orders.expectations());
    assertEquals(Optional.of("Orders; cleaned"), orders.comment());
    assertEquals(List.of("customer"), orders.partitionColumns());
    assertEquals(List.of(), orders.clusterColumns());
    assertEquals(Map.of("pipelines.reset.allowed", "false", "delta.appendOnly", "true"), orders.properties());
    assertFalse(orders.resetAllowed());

    assertEquals(1, graph.flows().size());
    FlowDefinition flow = flow(graph, "orders");
    assertTrue(flow.implicit());
    assertEquals(name("orders"), flow.target());
    assertEquals(at(2), lineOf(flow.origin()));
    assertEquals(Map.of(), flow.sqlConf());
    SqlFlowQuery query = query(flow);
    assertEquals("SELECT * FROM STREAM(raw_orders)", query.text());
    assertEquals(at(13), lineOf(query.origin()));
    assertEquals("spark_catalog", query.catalog());
    assertEquals("default", query.database());
    assertEquals(BASE, query.baseDir());
  }

  @Test
  void clusterByAndPropertiesWithoutEquals() {
    DataflowGraph graph = parse("CREATE STREAMING TABLE t CLUSTER BY (a, b) TBLPROPERTIES ('k' 'v', \"q\" = \"w\")"
        + " AS SELECT * FROM STREAM(s)");

    DatasetDefinition t = dataset(graph, "t");
    assertEquals(List.of("a", "b"), t.clusterColumns());
    assertEquals(Map.of("k", "v", "q", "w"), t.properties());
    assertEquals(Optional.empty(), t.declaredSchema());
    assertEquals(List.of(), t.expectations());
  }

  /** Spark and Delta accept unquoted boolean and numeric property values: {@code delta.appendOnly = true}. */
  @Test
  void unquotedBooleanAndNumericPropertyValues() {
    DataflowGraph graph = parse("CREATE STREAMING TABLE t TBLPROPERTIES ('pipelines.reset.allowed' = false,"
        + " delta.appendOnly = true, delta.logRetentionDays = 7) AS SELECT * FROM STREAM(s)");

    DatasetDefinition t = dataset(graph, "t");
    assertEquals(Map.of("pipelines.reset.allowed", "false", "delta.appendOnly", "true",
        "delta.logRetentionDays", "7"), t.properties());
    assertFalse(t.resetAllowed());
  }

  @Test
  void streamingTableWithoutQueryHasNoFlow() {
    DataflowGraph graph = parse("CREATE STREAMING TABLE events (id BIGINT, payload STRING)");

    assertEquals(DatasetType.STREAMING_TABLE, dataset(graph, "events").type());
    assertEquals(Optional.of("id BIGINT, payload STRING"), dataset(graph, "events").declaredSchema());
    assertEquals(List.of(), graph.flows());
  }

  @Test
  void materializedViewsWithAndWithoutOrRefresh() {
    DataflowGraph graph = parse("""
        CREATE MATERIALIZED VIEW totals AS SELECT customer, sum(amount) AS total FROM orders GROUP BY customer;
        CREATE OR REFRESH MATERIALIZED VIEW checked (
          customer STRING,
          total DECIMAL(20,2),
          CONSTRAINT non_negative EXPECT (total >= 0) ON VIOLATION DROP ROW
        ) COMMENT 'checked totals'
        AS SELECT * FROM totals
        """);

    DatasetDefinition totals = dataset(graph, "totals");
    assertEquals(DatasetType.MATERIALIZED_VIEW, totals.type());
    assertEquals(at(1), lineOf(totals.origin()));
    assertEquals("SELECT customer, sum(amount) AS total FROM orders GROUP BY customer", query(flow(graph, "totals")).text());

    DatasetDefinition checked = dataset(graph, "checked");
    assertEquals(DatasetType.MATERIALIZED_VIEW, checked.type());
    assertEquals(at(2), lineOf(checked.origin()));
    assertEquals(Optional.of("customer STRING, total DECIMAL(20,2)"), checked.declaredSchema());
    assertEquals(List.of(new Expectation("non_negative", "total >= 0", ViolationAction.DROP, at(5))),
        checked.expectations());
    assertEquals(Optional.of("checked totals"), checked.comment());
    FlowDefinition flow = flow(graph, "checked");
    assertTrue(flow.implicit());
    assertEquals("SELECT * FROM totals", query(flow).text());
    assertEquals(at(7), lineOf(query(flow).origin()));
  }

  @Test
  void temporaryAndPersistedViews() {
    DataflowGraph graph = parse("""
        CREATE TEMPORARY VIEW recent AS SELECT * FROM orders WHERE day > current_date() - 7;
        CREATE VIEW report
          COMMENT 'for the dashboard'
          AS SELECT count(*) AS n FROM recent;
        CREATE OR REPLACE TEMPORARY VIEW again AS SELECT 1 AS x;
        """);

    DatasetDefinition recent = dataset(graph, "recent");
    assertEquals(DatasetType.TEMPORARY_VIEW, recent.type());
    assertEquals(at(1), lineOf(recent.origin()));
    FlowDefinition recentFlow = flow(graph, "recent");
    assertTrue(recentFlow.implicit());
    assertEquals(name("recent"), recentFlow.target());
    assertEquals("SELECT * FROM orders WHERE day > current_date() - 7", query(recentFlow).text());

    DatasetDefinition report = dataset(graph, "report");
    assertEquals(DatasetType.PERSISTED_VIEW, report.type());
    assertEquals(at(2), lineOf(report.origin()));
    assertEquals(Optional.of("for the dashboard"), report.comment());
    assertEquals("SELECT count(*) AS n FROM recent", query(flow(graph, "report")).text());
    assertEquals(at(4), lineOf(query(flow(graph, "report")).origin()));

    assertEquals(DatasetType.TEMPORARY_VIEW, dataset(graph, "again").type());
    assertEquals(3, graph.flows().size());
  }

  @Test
  void explicitFlowIntoATable() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE all_orders;

        CREATE FLOW from_eu
        AS INSERT INTO all_orders BY NAME
        SELECT * FROM STREAM(eu_orders);
        CREATE FLOW from_us COMMENT 'US shop' AS INSERT INTO all_orders BY NAME SELECT * FROM STREAM(us_orders)
        """);

    FlowDefinition eu = flow(graph, "from_eu");
    assertFalse(eu.implicit());
    assertEquals(name("all_orders"), eu.target());
    assertEquals(at(3), lineOf(eu.origin()));
    assertEquals("SELECT * FROM STREAM(eu_orders)", query(eu).text());
    assertEquals(at(5), lineOf(query(eu).origin()));

    FlowDefinition us = flow(graph, "from_us");
    assertFalse(us.implicit());
    assertEquals(name("all_orders"), us.target());
    assertEquals(at(6), lineOf(us.origin()));
    assertEquals(List.of(eu, us), graph.flowsInto(name("all_orders")));
  }

  @Test
  void flowNamedLikeItsTargetWithoutQueryIsAllowed() {
    DataflowGraph graph = parse("CREATE STREAMING TABLE t; CREATE FLOW t AS INSERT INTO t BY NAME SELECT * FROM STREAM(s)");

    assertFalse(flow(graph, "t").implicit());
  }

  @Test
  void insertIntoWithoutByNameIsRefusedByName() {
    SluiceException e = fails("CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t\nSELECT * FROM STREAM(s)");

    assertEquals("BY_NAME_REQUIRED", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
    assertTrue(e.getMessage().contains("BY NAME"), e.getMessage());
  }

  // ---------------------------------------------------------------- REPLACE USING / WHERE

  @Test
  void inlineReplaceUsingDeclaresKeysAndSequence() {
    DataflowGraph graph = parse("""
        CREATE OR REFRESH STREAMING TABLE bookings_current
        FLOW REPLACE USING (property_id, booking_id) SEQUENCE BY STRUCT(updated_at, booking_update_id) BY NAME
        SELECT * FROM STREAM(samples.wanderbricks.booking_updates);
        """);
    FlowMode.ReplaceUsing mode = (FlowMode.ReplaceUsing) flow(graph, "bookings_current").mode();
    assertEquals(List.of("property_id", "booking_id"), mode.keys());
    assertTrue(mode.sequence().toString().toLowerCase().contains("booking_update_id"), mode.sequence().toString());
    assertTrue(flow(graph, "bookings_current").implicit());
  }

  @Test
  void longFormReplaceUsingAndReplaceWhere() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE t;
        CREATE FLOW keyed AS INSERT INTO t BY NAME
        REPLACE USING (id) SEQUENCE BY seq
        WITH s AS (SELECT * FROM STREAM(src)) SELECT * FROM s;
        CREATE STREAMING TABLE daily;
        CREATE FLOW recent AS INSERT INTO daily BY NAME
        REPLACE WHERE day >= date_sub(current_date(), 7) AND region IN (SELECT r FROM regions)
        SELECT * FROM src;
        """);
    assertEquals(List.of("id"), ((FlowMode.ReplaceUsing) flow(graph, "keyed").mode()).keys());
    assertEquals("day >= date_sub(current_date(), 7) AND region IN (SELECT r FROM regions)",
        ((FlowMode.ReplaceWhere) flow(graph, "recent").mode()).predicate());
  }

  @Test
  void replaceUsingWithoutKeysOrSequenceNamesWhatIsMissing() {
    assertEquals("REPLACE_USING_WITHOUT_KEYS",
        fails("CREATE STREAMING TABLE t FLOW REPLACE USING () SEQUENCE BY s BY NAME SELECT * FROM STREAM(x)").errorClass());
    assertEquals("REPLACE_USING_WITHOUT_SEQUENCE",
        fails("CREATE STREAMING TABLE t2 FLOW REPLACE USING (k) BY NAME SELECT * FROM STREAM(x)").errorClass());
    assertEquals("REPLACE_USING_TARGET",
        fails("CREATE MATERIALIZED VIEW t3 FLOW REPLACE USING (k) SEQUENCE BY s BY NAME SELECT * FROM x").errorClass());
  }

  // ---------------------------------------------------------------- SET and USE

  @Test
  void setAppliesToTheFlowsThatFollowIt() {
    DataflowGraph graph = parse("""
        CREATE MATERIALIZED VIEW before AS SELECT 1 AS x;
        SET spark.sql.shuffle.partitions = 4;
        CREATE MATERIALIZED VIEW middle AS SELECT 1 AS x;
        SET spark.sql.ansi.enabled=false;
        SET spark.sql.shuffle.partitions = 8;
        SET spark.sql.session.timeZone = America/New_York;
        CREATE STREAMING TABLE t;
        CREATE FLOW after AS INSERT INTO t BY NAME SELECT * FROM STREAM(s);
        CREATE TEMPORARY VIEW v AS SELECT 1 AS x;
        """);

    assertEquals(Map.of(), flow(graph, "before").sqlConf());
    assertEquals(Map.of("spark.sql.shuffle.partitions", "4"), flow(graph, "middle").sqlConf());
    Map<String, String> later = Map.of("spark.sql.shuffle.partitions", "8", "spark.sql.ansi.enabled", "false",
        "spark.sql.session.timeZone", "America/New_York");
    assertEquals(later, flow(graph, "after").sqlConf());
    assertEquals(later, flow(graph, "v").sqlConf());
  }

  @Test
  void setValueMayContainEquals() {
    DataflowGraph graph = parse("SET my.conf = a=b;\nCREATE MATERIALIZED VIEW m AS SELECT 1");

    assertEquals(Map.of("my.conf", "a=b"), flow(graph, "m").sqlConf());
  }

  @Test
  void setWithoutValueIsRefused() {
    SluiceException e = fails("CREATE MATERIALIZED VIEW m AS SELECT 1;\nSET;");

    assertEquals("INVALID_SET", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
  }

  @Test
  void setDoesNotLeakIntoTheNextFile() {
    parse("a.sql", "SET spark.sql.shuffle.partitions = 4; CREATE MATERIALIZED VIEW a AS SELECT 1");
    DataflowGraph graph = parse("b.sql", "CREATE MATERIALIZED VIEW b AS SELECT 1");

    assertEquals(Map.of("spark.sql.shuffle.partitions", "4"), flow(graph, "a").sqlConf());
    assertEquals(Map.of(), flow(graph, "b").sqlConf());
  }

  @Test
  void useCatalogAndSchemaQualifyTheNamesThatFollow() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE t0 AS SELECT * FROM STREAM(s);
        USE CATALOG lake;
        CREATE STREAMING TABLE t1 AS SELECT * FROM STREAM(s);
        USE SCHEMA bronze;
        CREATE STREAMING TABLE t2;
        CREATE FLOW f2 AS INSERT INTO t2 BY NAME SELECT * FROM STREAM(t1);
        CREATE FLOW f0 AS INSERT INTO spark_catalog.default.t0 BY NAME SELECT * FROM STREAM(t1);
        USE DATABASE other.silver;
        CREATE MATERIALIZED VIEW m AS SELECT * FROM t2;
        CREATE MATERIALIZED VIEW gold.m AS SELECT 1;
        """);

    assertTrue(graph.dataset(new DatasetName("spark_catalog", "default", "t0")).isPresent());
    assertTrue(graph.dataset(new DatasetName("lake", "default", "t1")).isPresent());
    DatasetName t2 = new DatasetName("lake", "bronze", "t2");
    assertTrue(graph.dataset(t2).isPresent());
    assertTrue(graph.dataset(new DatasetName("other", "silver", "m")).isPresent());
    assertTrue(graph.dataset(new DatasetName("other", "gold", "m")).isPresent());
    assertEquals(5, graph.datasets().size());

    FlowDefinition f2 = flow(graph, new DatasetName("lake", "bronze", "f2"));
    assertEquals(t2, f2.target());
    assertEquals("lake", query(f2).catalog());
    assertEquals("bronze", query(f2).database());
    FlowDefinition f0 = flow(graph, new DatasetName("lake", "bronze", "f0"));
    assertEquals(name("t0"), f0.target());

    SqlFlowQuery t1Query = query(flow(graph, new DatasetName("lake", "default", "t1")));
    assertEquals("lake", t1Query.catalog());
    assertEquals("default", t1Query.database());
    SqlFlowQuery mQuery = query(flow(graph, new DatasetName("other", "silver", "m")));
    assertEquals("other", mQuery.catalog());
    assertEquals("silver", mQuery.database());
  }

  @Test
  void useDoesNotLeakIntoTheNextFile() {
    parse("a.sql", "USE CATALOG lake; USE SCHEMA bronze; CREATE MATERIALIZED VIEW a AS SELECT 1");
    DataflowGraph graph = parse("b.sql", "CREATE MATERIALIZED VIEW b AS SELECT 1");

    assertTrue(graph.dataset(new DatasetName("lake", "bronze", "a")).isPresent());
    assertTrue(graph.dataset(name("b")).isPresent());
    assertEquals("default", query(flow(graph, "b")).database());
  }

  @Test
  void useCatalogWithTwoPartsIsRefused() {
    SluiceException e = fails("USE CATALOG a.b");

    assertEquals("INVALID_USE", e.errorClass());
  }

  @Test
  void nameWithFourPartsIsRefused() {
    SluiceException e = fails("\nCREATE MATERIALIZED VIEW a.b.c.d AS SELECT 1");

    assertEquals("INVALID_NAME", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
  }

  // ---------------------------------------------------------------- lexical details

  @Test
  void commentsAndStringsWithSemicolonsDoNotEndAStatement() {
    DataflowGraph graph = parse("""
        /* header; with a semicolon
           and an apostrophe: it's */
        CREATE MATERIALIZED VIEW m -- the view; don't split here
        AS SELECT id, -- the key; a comment
               'a;b' AS s, "c;d" AS t, 'it\\'s; fine' AS u /* inline; comment */
          FROM src
          WHERE `odd;name` = ';'
        ;
        -- trailing comment; nothing here
        CREATE MATERIALIZED VIEW n AS SELECT 2
        """);

    assertEquals(2, graph.datasets().size());
    assertEquals(at(3), lineOf(dataset(graph, "m").origin()));
    assertEquals("""
        SELECT id, -- the key; a comment
               'a;b' AS s, "c;d" AS t, 'it\\'s; fine' AS u /* inline; comment */
          FROM src
          WHERE `odd;name` = ';'""", query(flow(graph, "m")).text());
    assertEquals(at(4), lineOf(query(flow(graph, "m")).origin()));
    assertEquals(at(10), lineOf(dataset(graph, "n").origin()));
    assertEquals("SELECT 2", query(flow(graph, "n")).text());
  }

  @Test
  void queryStartingOnALaterLineHasThatLine() {
    DataflowGraph graph = parse("""
        CREATE MATERIALIZED VIEW m
        AS
          -- explain the query
          WITH x AS (SELECT 1 AS a)
          SELECT a FROM x
        """);

    SqlFlowQuery query = query(flow(graph, "m"));
    assertEquals("WITH x AS (SELECT 1 AS a)\n  SELECT a FROM x", query.text());
    assertEquals(at(4), lineOf(query.origin()));
    assertEquals(at(1), lineOf(dataset(graph, "m").origin()));
  }

  @Test
  void windowsLineEndings() {
    DataflowGraph graph = parse("CREATE MATERIALIZED VIEW a\r\nAS SELECT 1\r\nFROM x;\r\n\r\nCREATE MATERIALIZED VIEW b AS SELECT 2");

    assertEquals(at(1), lineOf(dataset(graph, "a").origin()));
    assertEquals("SELECT 1\r\nFROM x", query(flow(graph, "a")).text());
    assertEquals(at(2), lineOf(query(flow(graph, "a")).origin()));
    assertEquals(at(5), lineOf(dataset(graph, "b").origin()));
  }

  @Test
  void nestedParenthesesInColumnTypesAndExpectations() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE t (
          price DECIMAL(10,2),
          tags ARRAY<STRUCT<k: STRING, v: DECIMAL(5, 1)>>,
          m MAP<STRING, INT> COMMENT 'a (b, c)',
          amount DECIMAL(10,2) /* money (gross, tax) */ NOT NULL,
          CONSTRAINT nested EXPECT (((price > 0) AND (coalesce(amount, 0) IN (1, 2, (3)))) OR size(tags) = 0)
            ON VIOLATION DROP ROW,
          CONSTRAINT multi_line EXPECT (
            price < 100
            AND note <> ')'
          )
        )
        """);

    DatasetDefinition t = dataset(graph, "t");
    assertEquals(Optional.of("price DECIMAL(10,2), tags ARRAY<STRUCT<k: STRING, v: DECIMAL(5, 1)>>, "
            + "m MAP<STRING, INT> COMMENT 'a (b, c)', amount DECIMAL(10,2) /* money (gross, tax) */ NOT NULL"),
        t.declaredSchema());
    assertEquals(List.of(
            new Expectation("nested",
                "((price > 0) AND (coalesce(amount, 0) IN (1, 2, (3)))) OR size(tags) = 0", ViolationAction.DROP, at(6)),
            new Expectation("multi_line", "price < 100\n    AND note <> ')'", ViolationAction.WARN, at(8))),
        t.expectations());
  }

  @Test
  void backquotedIdentifiers() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE `order-lines` (
          `line id` BIGINT,
          CONSTRAINT `valid line` EXPECT (`line id` > 0)
        )
        PARTITIONED BY (`line id`)
        AS SELECT * FROM STREAM(`raw lines`);
        CREATE MATERIALIZED VIEW `my``view` AS SELECT 1;
        CREATE MATERIALIZED VIEW `sch ema`.`t` AS SELECT 1;
        """);

    DatasetDefinition lines = dataset(graph, "order-lines");
    assertEquals("order-lines", lines.name().name());
    assertEquals(Optional.of("`line id` BIGINT"), lines.declaredSchema());
    assertEquals("valid line", lines.expectations().get(0).name());
    assertEquals("`line id` > 0", lines.expectations().get(0).condition());
    assertEquals(List.of("line id"), lines.partitionColumns());
    assertEquals("SELECT * FROM STREAM(`raw lines`)", query(flow(graph, "order-lines")).text());
    assertTrue(graph.dataset(name("my`view")).isPresent());
    assertTrue(graph.dataset(new DatasetName("spark_catalog", "sch ema", "t")).isPresent());
  }

  @Test
  void keywordsAsTableAndColumnNames() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE flow (
          name STRING,
          comment STRING,
          table INT,
          view INT,
          row INT,
          update INT,
          schema STRING,
          CONSTRAINT set EXPECT (name IS NOT NULL)
        )
        PARTITIONED BY (schema)
        CLUSTER BY (name, comment)
        TBLPROPERTIES (refresh.by = 'x')
        AS SELECT name, comment FROM STREAM(source);
        CREATE MATERIALIZED VIEW streaming.table AS SELECT * FROM flow;
        CREATE VIEW view AS SELECT 1 AS as_of;
        CREATE FLOW insert AS INSERT INTO flow BY NAME SELECT name FROM STREAM(name);
        CREATE MATERIALIZED VIEW materialized AS SELECT 1;
        """);

    DatasetDefinition flowTable = dataset(graph, "flow");
    assertEquals(Optional.of("name STRING, comment STRING, table INT, view INT, row INT, update INT, schema STRING"),
        flowTable.declaredSchema());
    assertEquals("set", flowTable.expectations().get(0).name());
    assertEquals(List.of("schema"), flowTable.partitionColumns());
    assertEquals(List.of("name", "comment"), flowTable.clusterColumns());
    assertEquals(Map.of("refresh.by", "x"), flowTable.properties());
    assertTrue(graph.dataset(new DatasetName("spark_catalog", "streaming", "table")).isPresent());
    assertEquals(DatasetType.PERSISTED_VIEW, dataset(graph, "view").type());
    assertEquals(name("flow"), flow(graph, "insert").target());
    assertEquals("SELECT name FROM STREAM(name)", query(flow(graph, "insert")).text());
    assertTrue(graph.dataset(name("materialized")).isPresent());
  }

  @Test
  void keywordsAreCaseInsensitive() {
    DataflowGraph graph = parse("""
        create or refresh streaming table t (
          id int,
          constraint ok expect (id > 0) on violation drop row
        ) comment 'c' partitioned by (id)
        as select * from stream(s);
        Create Flow f As Insert Into t By Name Select * From Stream(s2);
        set a.b = c;
        use catalog lake;
        create temporary view v as select 1;
        """);

    DatasetDefinition t = dataset(graph, "t");
    assertEquals(ViolationAction.DROP, t.expectations().get(0).action());
    assertEquals(List.of("id"), t.partitionColumns());
    assertEquals(name("t"), flow(graph, "f").target());
    assertTrue(graph.dataset(new DatasetName("lake", "default", "v")).isPresent());
    assertEquals(Map.of("a.b", "c"), flow(graph, new DatasetName("lake", "default", "v")).sqlConf());
  }

  @Test
  void commentsOnlyAndStraySemicolonsDefineNothing() {
    DataflowGraph graph = parse("-- nothing yet\n;;\n/* really */ ;\n");

    assertEquals(Map.of(), graph.datasets());
    assertEquals(List.of(), graph.flows());
  }

  @Test
  void emptyFileDefinesNothing() {
    assertEquals(Map.of(), parse("").datasets());
  }

  @Test
  void repeatedSemicolonsBetweenStatements() {
    DataflowGraph graph = parse(";CREATE MATERIALIZED VIEW a AS SELECT 1;;\n;CREATE MATERIALIZED VIEW b AS SELECT 2;;");

    assertEquals(2, graph.datasets().size());
    assertEquals(at(2), lineOf(dataset(graph, "b").origin()));
  }

  @Test
  void escapedQuotesInComments() {
    DataflowGraph graph = parse("CREATE MATERIALIZED VIEW m COMMENT 'it\\'s \"quoted\"' AS SELECT 1;"
        + "CREATE MATERIALIZED VIEW n COMMENT \"double; quoted\" AS SELECT 1");

    assertEquals(Optional.of("it's \"quoted\""), dataset(graph, "m").comment());
    assertEquals(Optional.of("double; quoted"), dataset(graph, "n").comment());
  }

  /** Spark's SQL parser nests bracketed comments; commenting out a block that holds a comment must work. */
  @Test
  void nestedBracketedComments() {
    DataflowGraph graph = parse("""
        /*
        CREATE MATERIALIZED VIEW old AS
        SELECT 1 /* the old one */;
        */
        CREATE MATERIALIZED VIEW current AS SELECT 2;
        """);

    assertEquals(List.of(name("current")), List.copyOf(graph.datasets().keySet()));
    assertEquals(at(5), lineOf(dataset(graph, "current").origin()));
  }

  // ---------------------------------------------------------------- errors

  @Test
  void typoOnLineSevenIsReportedThere() {
    SluiceException e = fails("""
        -- orders pipeline
        SET spark.sql.shuffle.partitions = 4;

        CREATE MATERIALIZED VIEW a
        AS SELECT 1 AS x;
        /* next: a typo */
        CREATE STREAMING TABEL b AS SELECT * FROM STREAM(a);
        """);

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(Origin.of(FILE, 7, 18), e.origin(), "the column of TABEL");
    assertTrue(e.userMessage().startsWith(FILE + ":7:18: "), e.userMessage());
    assertTrue(e.userMessage().contains("TABEL"), e.userMessage());
    assertTrue(e.userMessage().endsWith("[SQL_SYNTAX_ERROR]"), e.userMessage());
  }

  @Test
  void misspelledStatementKeywordOnLineSeven() {
    SluiceException e = fails("""
        CREATE MATERIALIZED VIEW a AS SELECT 1;
        CREATE MATERIALIZED VIEW b AS SELECT 1;
        -- c follows



        CRATE MATERIALIZED VIEW c AS SELECT 1;
        """);

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(at(7), lineOf(e.origin()));
  }

  @Test
  void errorInsideAMultiLineStatementGivesTheLineOfTheError() {
    SluiceException e = fails("""
        CREATE MATERIALIZED VIEW a AS SELECT 1;

        -- the table
        CREATE STREAMING TABLE t (
          id INT,
          CONSTRAINT ok EXPECT (id > 0)
            ON VIOLATION DROP ROWS
        ) AS SELECT * FROM STREAM(s);
        """);

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(Origin.of(FILE, 7, 23), e.origin(), "the column of ROWS");
  }

  @Test
  void expectationWithoutParenthesesIsASyntaxError() {
    SluiceException e = fails("CREATE STREAMING TABLE t (\n  id INT,\n  CONSTRAINT ok EXPECT id > 0\n)");

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(at(3), lineOf(e.origin()));
  }

  @Test
  void partitionedWithoutByIsASyntaxError() {
    SluiceException e = fails("CREATE STREAMING TABLE t\nCOMMENT 'x'\nPARTITIONED (id)\nAS SELECT * FROM STREAM(s)");

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(at(3), lineOf(e.origin()));
  }

  @Test
  void missingAsIsASyntaxError() {
    SluiceException e = fails("CREATE MATERIALIZED VIEW m\nSELECT 1");

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
  }

  @Test
  void viewWithoutQueryIsASyntaxError() {
    SluiceException e = fails("CREATE TEMPORARY VIEW v;");

    assertEquals("SQL_SYNTAX_ERROR", e.errorClass());
    assertEquals(at(1), lineOf(e.origin()));
  }

  @Test
  void duplicateDatasetIsReportedAtTheSecondDefinition() {
    SluiceException e = fails("""
        CREATE STREAMING TABLE orders;

        CREATE MATERIALIZED VIEW Orders AS SELECT 1;
        """);

    assertEquals("DUPLICATE_DATASET", e.errorClass());
    assertEquals(at(3), lineOf(e.origin()));
    assertTrue(e.getMessage().contains(FILE + ":1"), e.getMessage());
  }

  @Test
  void qualifiedAndUnqualifiedNamesOfOneDatasetAreDuplicates() {
    SluiceException e = fails("CREATE TEMPORARY VIEW v AS SELECT 1;\nCREATE VIEW default.v AS SELECT 1;");

    assertEquals("DUPLICATE_DATASET", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
  }

  @Test
  void duplicateDatasetAcrossFiles() {
    parse("a.sql", "CREATE MATERIALIZED VIEW m AS SELECT 1");

    SluiceException e = assertThrows(SluiceException.class, () -> parse("b.sql", "\n\nCREATE MATERIALIZED VIEW M AS SELECT 2"));

    assertEquals("DUPLICATE_DATASET", e.errorClass());
    assertEquals(Origin.of("b.sql", 3), e.origin());
    assertTrue(e.getMessage().contains("a.sql:1"), e.getMessage());
  }

  @Test
  void sameNameInAnotherSchemaIsNotADuplicate() {
    DataflowGraph graph = parse("CREATE MATERIALIZED VIEW m AS SELECT 1; USE SCHEMA other; CREATE MATERIALIZED VIEW m AS SELECT 2");

    assertEquals(2, graph.datasets().size());
  }

  @Test
  void duplicateFlowName() {
    SluiceException e = fails("""
        CREATE STREAMING TABLE t;
        CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(a);
        CREATE FLOW F AS INSERT INTO t BY NAME SELECT * FROM STREAM(b);
        """);

    assertEquals("DUPLICATE_FLOW", e.errorClass());
    assertEquals(at(3), lineOf(e.origin()));
  }

  @Test
  void explicitFlowNamedLikeATableWithAQueryIsADuplicateFlow() {
    SluiceException e = fails("CREATE STREAMING TABLE t AS SELECT * FROM STREAM(a);\n"
        + "CREATE FLOW t AS INSERT INTO t BY NAME SELECT * FROM STREAM(b);");

    assertEquals("DUPLICATE_FLOW", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
  }

  @Test
  void duplicateCommentClause() {
    SluiceException e = fails("""
        CREATE STREAMING TABLE t
          COMMENT 'one'
          PARTITIONED BY (a)
          COMMENT 'two'
        AS SELECT * FROM STREAM(s)
        """);

    assertEquals("DUPLICATE_CLAUSE", e.errorClass());
    assertEquals(at(4), lineOf(e.origin()));
    assertTrue(e.getMessage().contains("COMMENT"), e.getMessage());
  }

  @Test
  void duplicatePartitionedByClause() {
    SluiceException e = fails("CREATE MATERIALIZED VIEW m\n  PARTITIONED BY (a)\n  partitioned by (b)\nAS SELECT 1 AS a, 2 AS b");

    assertEquals("DUPLICATE_CLAUSE", e.errorClass());
    assertEquals(at(3), lineOf(e.origin()));
  }

  @Test
  void duplicateTblpropertiesAndClusterByClauses() {
    assertEquals("DUPLICATE_CLAUSE",
        fails("CREATE STREAMING TABLE t TBLPROPERTIES ('a' = '1') TBLPROPERTIES ('b' = '2')").errorClass());
    assertEquals("DUPLICATE_CLAUSE",
        fails("CREATE STREAMING TABLE u CLUSTER BY (a) CLUSTER BY (b)").errorClass());
  }

  // ---------------------------------------------------------------- AUTO CDC (SEMANTICS §4.1)

  private static FlowMode.AutoCdc autoCdc(DataflowGraph graph, String flow) {
    return (FlowMode.AutoCdc) flow(graph, flow).mode();
  }

  @Test
  void autoCdcClausesInAnyOrderGiveTheSameFlow() {
    DataflowGraph graph = parse("""
        CREATE STREAMING TABLE t1;
        CREATE FLOW f1 AS AUTO CDC INTO t1
        FROM STREAM(src)
        KEYS (id, region)
        IGNORE NULL UPDATES ON * EXCEPT (city)
        APPLY AS DELETE WHEN op = 'DELETE'
        SEQUENCE BY STRUCT(ts, n)
        COLUMNS * EXCEPT (op, ts)
        STORED AS SCD TYPE 2
        TRACK HISTORY ON name, city;
        CREATE FLOW f2 AS auto cdc INTO t1 FROM STREAM(src)
          track history on name, city
          stored as scd type 2
          columns * except (op, ts)
          sequence by STRUCT(ts, n)
          apply as delete when op = 'DELETE'
          ignore null updates on * except (city)
          keys (id, region);
        """);

    FlowMode.AutoCdc expected = new FlowMode.AutoCdc(List.of("id", "region"), functions.expr("STRUCT(ts, n)"),
        Optional.of("op = 'DELETE'"), Optional.empty(), ColumnSelection.except(List.of("op", "ts")), ScdType.TYPE_2,
        ColumnSelection.only(List.of("name", "city")), ColumnSelection.except(List.of("city")), false);
    assertEquals(expected, autoCdc(graph, "f1"));
    assertEquals(expected, autoCdc(graph, "f2"));
    assertTrue(expected.streaming());
    FlowDefinition f1 = flow(graph, "f1");
    assertEquals(name("t1"), f1.target());
    assertFalse(f1.implicit());
    assertEquals(at(2), lineOf(f1.origin()));
    assertEquals("SELECT * FROM STREAM(src)", query(f1).text());
    assertEquals(at(3), lineOf(query(f1).origin()));
    assertEquals(at(11), lineOf(flow(graph, "f2").origin()));
  }

  @Test
  void autoCdcTruncateClauseInAnyOrder() {
    DataflowGraph graph = parse("""
        CREATE FLOW a AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) APPLY AS TRUNCATE WHEN op = 'T'
          APPLY AS DELETE WHEN op = 'D' SEQUENCE BY ts IGNORE NULL UPDATES STORED AS SCD TYPE 1;
        CREATE FLOW b AS AUTO CDC INTO t FROM STREAM(src) STORED AS SCD TYPE 1 IGNORE NULL UPDATES SEQUENCE BY ts
          APPLY AS DELETE WHEN op = 'D' APPLY AS TRUNCATE WHEN op = 'T' KEYS (id);
        """);

    FlowMode.AutoCdc expected = new FlowMode.AutoCdc(List.of("id"), functions.expr("ts"), Optional.of("op = 'D'"),
        Optional.of("op = 'T'"), ColumnSelection.ALL, ScdType.TYPE_1, ColumnSelection.ALL, ColumnSelection.ALL, false);
    assertEquals(expected, autoCdc(graph, "a"));
    assertEquals(expected, autoCdc(graph, "b"));
  }

  @Test
  void autoCdcDefaultsAndOnce() {
    DataflowGraph graph = parse("CREATE FLOW f AS AUTO CDC ONCE INTO t FROM snapshot_feed KEYS (id) SEQUENCE BY ts;");

    FlowMode.AutoCdc mode = autoCdc(graph, "f");
    assertEquals(new FlowMode.AutoCdc(List.of("id"), functions.expr("ts"), Optional.empty(), Optional.empty(),
        ColumnSelection.ALL, ScdType.TYPE_1, ColumnSelection.ALL, ColumnSelection.NONE, true), mode);
    assertFalse(mode.streaming());
    assertEquals("SELECT * FROM snapshot_feed", query(flow(graph, "f")).text());
  }

  @Test
  void autoCdcSourceForms() {
    DataflowGraph graph = parse("""
        CREATE FLOW parens AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY ts;
        CREATE FLOW bare AS AUTO CDC INTO t FROM STREAM src KEYS (id) SEQUENCE BY ts;
        CREATE FLOW qualified AS AUTO CDC INTO t FROM STREAM other_db.`src-1` KEYS (id) SEQUENCE BY ts;
        CREATE FLOW batch AS AUTO CDC INTO t FROM src KEYS (id) SEQUENCE BY ts;
        """);

    assertEquals("SELECT * FROM STREAM(src)", query(flow(graph, "parens")).text());
    assertEquals("SELECT * FROM STREAM(src)", query(flow(graph, "bare")).text());
    assertEquals("SELECT * FROM STREAM(other_db.`src-1`)", query(flow(graph, "qualified")).text());
    assertEquals("SELECT * FROM src", query(flow(graph, "batch")).text());
    assertFalse(autoCdc(graph, "batch").once(), "a batch source without ONCE is refused later, by the validator");
  }

  @Test
  void autoCdcColumnSelections() {
    DataflowGraph graph = parse("""
        CREATE FLOW list AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts COLUMNS id, a, b;
        CREATE FLOW parens AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts COLUMNS (id, a, b);
        CREATE FLOW except AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts COLUMNS * EXCEPT (a);
        CREATE FLOW star AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) COLUMNS * SEQUENCE BY ts;
        CREATE FLOW inu AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts IGNORE NULL UPDATES;
        CREATE FLOW inu_on AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts IGNORE NULL UPDATES ON (a, b);
        CREATE FLOW inu_except AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) IGNORE NULL UPDATES ON * EXCEPT (a)
          SEQUENCE BY ts;
        CREATE FLOW track_except AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts STORED AS SCD TYPE 2
          TRACK HISTORY ON * EXCEPT (b);
        """);

    assertEquals(ColumnSelection.only(List.of("id", "a", "b")), autoCdc(graph, "list").columns());
    assertEquals(ColumnSelection.only(List.of("id", "a", "b")), autoCdc(graph, "parens").columns());
    assertEquals(ColumnSelection.except(List.of("a")), autoCdc(graph, "except").columns());
    assertEquals(ColumnSelection.ALL, autoCdc(graph, "star").columns());
    assertEquals(ColumnSelection.ALL, autoCdc(graph, "inu").ignoreNullUpdates());
    assertEquals(ColumnSelection.only(List.of("a", "b")), autoCdc(graph, "inu_on").ignoreNullUpdates());
    assertEquals(ColumnSelection.except(List.of("a")), autoCdc(graph, "inu_except").ignoreNullUpdates());
    assertEquals(ColumnSelection.NONE, autoCdc(graph, "list").ignoreNullUpdates());
    assertEquals(ColumnSelection.except(List.of("b")), autoCdc(graph, "track_except").trackHistory());
  }

  @Test
  void autoCdcClauseGivenTwice() {
    SluiceException keys = fails("""
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s)
          KEYS (id)
          SEQUENCE BY ts
          KEYS (other);
        """);
    assertEquals("DUPLICATE_CLAUSE", keys.errorClass());
    assertEquals(at(4), lineOf(keys.origin()));
    assertTrue(keys.getMessage().startsWith("KEYS is given twice"), keys.getMessage());

    SluiceException columns = fails("""
        CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts
          COLUMNS a, id
          COLUMNS * EXCEPT (b);
        """);
    assertEquals("DUPLICATE_CLAUSE", columns.errorClass());
    assertEquals(at(3), lineOf(columns.origin()));
    assertTrue(columns.getMessage().startsWith("COLUMNS is given twice"), columns.getMessage());

    Map<String, String> clauses = Map.of(
        "SEQUENCE BY ts2", "SEQUENCE BY",
        "apply as delete when b", "APPLY AS DELETE WHEN",
        "IGNORE NULL UPDATES ON (a)", "IGNORE NULL UPDATES",
        "STORED AS SCD TYPE 1", "STORED AS");
    clauses.forEach((twice, clause) -> {
      SluiceException e = fails("CREATE FLOW h AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts\n"
          + "APPLY AS DELETE WHEN a IGNORE NULL UPDATES STORED AS SCD TYPE 1\n" + twice);
      assertEquals("DUPLICATE_CLAUSE", e.errorClass(), twice);
      assertEquals(at(3), lineOf(e.origin()), twice);
      assertTrue(e.getMessage().startsWith(clause + " is given twice for flow 'h'"), e.getMessage());
    });
  }

  @Test
  void autoCdcWithoutKeys() {
    SluiceException none = fails("\nCREATE FLOW f AS AUTO CDC INTO t\nFROM STREAM(s)\nSEQUENCE BY ts");
    assertEquals("AUTO_CDC_WITHOUT_KEYS", none.errorClass());
    assertEquals(at(2), lineOf(none.origin()));
    assertTrue(none.getMessage().startsWith("AUTO CDC flow 'f' names no key column"), none.getMessage());

    SluiceException empty = fails("CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(s) KEYS () SEQUENCE BY ts");
    assertEquals("AUTO_CDC_WITHOUT_KEYS", empty.errorClass());
    assertEquals(at(1), lineOf(empty.origin()));
  }

  @Test
  void autoCdcWithoutSequence() {
    SluiceException e = fails("CREATE STREAMING TABLE x AS SELECT 1;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id)");
    assertEquals("AUTO_CDC_WITHOUT_SEQUENCE", e.errorClass());
    assertEquals(at(2), lineOf(e.origin()));
    assertTrue(e.getMessage().contains("SEQUENCE BY"), e.getMessage());
  }

  @Test
  void autoCdcScdTypeIsOneOrTwo() {
    SluiceException three = fails("CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts\n  STORED AS SCD TYPE 3");
    assertEquals("AUTO_CDC_INVALID_SCD_TYPE", three.errorClass());
    assertEquals(at(2), lineOf(three.origin()));
    assertTrue(three.getMessage().contains("not 3"), three.getMessage());
    assertEquals("AUTO_CDC_INVALID_SCD_TYPE",
        fails("CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts STORED AS SCD TYPE two").errorClass());
  }

  @Test
  void autoCdcClausesThatNeedTheOtherScdType() {
    SluiceException truncate = fails("""
        CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts
          APPLY AS TRUNCATE WHEN op = 'T'
          STORED AS SCD TYPE 2;
        """);
    assertEquals("AUTO_CDC_TRUNCATE_WITH_SCD2", truncate.errorClass());
    assertEquals(at(1), lineOf(truncate.origin()));

    SluiceException track = fails("""

        CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY ts
          TRACK HISTORY ON a;
        """);
    assertEquals("AUTO_CDC_TRACK_HISTORY_WITH_SCD1", track.errorClass());
    assertEquals(at(2), lineOf(track.origin()));
    assertEquals(List.of(), registry.toGraph().flows(), "no flow is registered");
  }

  @Test
  void snapshotSourceForms() {
    DataflowGraph graph = parse("""
        CREATE FLOW periodic AS AUTO CDC INTO t FROM SNAPSHOT db.customers KEYS (id);
        CREATE FLOW query AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM customers) KEYS (id)
          STORED AS SCD TYPE 2 TRACK HISTORY ON name;
        CREATE FLOW historical AS AUTO CDC ONCE INTO t
        FROM SNAPSHOT (SELECT * FROM read_files(current_snapshot_version()))
        WITH VERSION (SELECT max(path) FROM list_files('in') WHERE path > last_snapshot_version())
        KEYS (id, day);
        CREATE FLOW feed AS AUTO CDC ONCE INTO t FROM snapshot KEYS (id) SEQUENCE BY ts;
        """);

    FlowMode.AutoCdcFromSnapshot periodic = (FlowMode.AutoCdcFromSnapshot) flow(graph, "periodic").mode();
    assertEquals(new FlowMode.AutoCdcFromSnapshot(List.of("id"), ScdType.TYPE_1, ColumnSelection.ALL, false, Optional.empty()),
        periodic);
    assertEquals("SELECT * FROM db.customers", query(flow(graph, "periodic")).text());
    FlowMode.AutoCdcFromSnapshot query = (FlowMode.AutoCdcFromSnapshot) flow(graph, "query").mode();
    assertEquals(ScdType.TYPE_2, query.scdType());
    assertEquals(ColumnSelection.only(List.of("name")), query.trackHistory());
    assertEquals("SELECT id, name FROM customers", query(flow(graph, "query")).text());
    assertEquals(at(2), lineOf(query(flow(graph, "query")).origin()));
    FlowMode.AutoCdcFromSnapshot historical = (FlowMode.AutoCdcFromSnapshot) flow(graph, "historical").mode();
    assertTrue(historical.once());
    assertEquals(List.of("id", "day"), historical.keys());
    SqlSnapshotSource versions = (SqlSnapshotSource) historical.versions().orElseThrow();
    assertEquals("SELECT * FROM read_files(current_snapshot_version())", versions.snapshot().text());
    assertEquals("SELECT max(path) FROM list_files('in') WHERE path > last_snapshot_version()",
        versions.version().text());
    assertEquals(at(6), lineOf(versions.version().origin()));
    assertTrue(flow(graph, "feed").mode() instanceof FlowMode.AutoCdc, "a change feed named snapshot stays one");
  }

  @Test
  void snapshotFlowsRefuseChangeFeedClauses() {
    SluiceException e = fails("CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT s KEYS (id) SEQUENCE BY ts");
    assertEquals("SNAPSHOT_CLAUSE", e.errorClass());
    assertEquals(at(1), lineOf(e.origin()));
    assertTrue(e.getMessage().startsWith("AUTO CDC FROM SNAPSHOT flow 'f': SEQUENCE BY has no meaning"), e.getMessage());
    assertEquals("SNAPSHOT_CLAUSE",
        fails("CREATE FLOW g AS AUTO CDC INTO t FROM SNAPSHOT s KEYS (id) APPLY AS DELETE WHEN op = 'D'").errorClass());
    assertEquals("AUTO_CDC_WITHOUT_KEYS", fails("CREATE FLOW h AS AUTO CDC INTO t FROM SNAPSHOT (SELECT 1)").errorClass());
  }
}
