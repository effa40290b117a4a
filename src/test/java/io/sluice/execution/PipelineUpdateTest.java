package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.eventlog.FlowState;
import io.sluice.testsupport.JarBuilder;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Updates run in-process on the shared session: flows, views, expectations, failures (SEMANTICS §1, §6). */
class PipelineUpdateTest {
  @TempDir Path dir;

  private static final String BRONZE = """
      CREATE STREAMING TABLE raw
      AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, v STRING');
      """;

  @Test
  void streamingTableAppendsOnlyNewFilesAndMaterializedViewIsRecomputed() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n{\"id\": 2, \"v\": \"y\"}\n")
        .sql(BRONZE + """
            CREATE MATERIALIZED VIEW counts AS SELECT v, count(*) AS n FROM raw GROUP BY v;
            """);
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[1,x]", "[2,y]"), p.rows("SELECT id, v FROM raw"));

    p.write("landing/b.json", "{\"id\": 3, \"v\": \"x\"}\n");
    UpdateResult second = p.run();
    assertEquals(1, outcome(second, "raw").rowsWritten(), "only the new file is read");
    assertEquals(List.of("[1,x]", "[2,y]", "[3,x]"), p.rows("SELECT id, v FROM raw"));
    assertEquals(List.of("[x,2]", "[y,1]"), p.rows("SELECT * FROM counts"));

    UpdateResult idle = p.run();
    assertEquals(0, outcome(idle, "raw").batches(), "no new input, no batch");
    assertEquals(List.of("[1,x]", "[2,y]", "[3,x]"), p.rows("SELECT id, v FROM raw"));
  }

  @Test
  void severalAppendFlowsWriteIntoOneTableAndViewsFeedDownstream() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n")
        .write("other/a.json", "{\"id\": 10, \"v\": \"z\"}\n")
        .sql("""
            CREATE STREAMING TABLE everything;
            CREATE TEMPORARY VIEW first_source AS
              SELECT id, v FROM STREAM read_files('landing', format => 'json', schema => 'id INT, v STRING');
            CREATE FLOW from_landing AS INSERT INTO everything BY NAME SELECT * FROM STREAM(first_source);
            CREATE FLOW from_other AS INSERT INTO everything BY NAME
              SELECT id, upper(v) AS v, 'other' AS origin
              FROM STREAM read_files('other', format => 'json', schema => 'id INT, v STRING');
            CREATE VIEW tagged AS SELECT id, coalesce(origin, 'landing') AS origin FROM everything;
            """);
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[1,x,null]", "[10,Z,other]"), p.rows("SELECT id, v, origin FROM everything"));
    assertEquals(List.of("[1,landing]", "[10,other]"), p.rows("SELECT * FROM tagged"));
    assertFalse(p.spark().catalog().tableExists("first_source"),
        "a pipeline's temporary view stays in its update: the caller's session does not see it");
    p.spark().sql("CREATE TABLE " + p.database() + ".first_source (name STRING) USING delta");
    p.spark().sql("INSERT INTO " + p.database() + ".first_source VALUES ('a table of that name')");
    assertEquals(List.of("[a table of that name]"), p.rows("SELECT * FROM first_source"));

    SparkSession caller = p.spark().newSession();
    PipelineUpdate.validate(caller, p.spec());
    assertEquals("default", caller.catalog().currentDatabase(), "a dry run leaves the caller's current database as it was");
  }

  @Test
  void expectationsWarnDropAndReportTheirMetrics() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n{\"id\": -2, \"v\": \"y\"}\n{\"id\": 3, \"v\": null}\n")
        .sql(BRONZE + """
            CREATE STREAMING TABLE clean (
              CONSTRAINT positive EXPECT (id > 0) ON VIOLATION DROP ROW,
              CONSTRAINT has_v EXPECT (v IS NOT NULL)
            ) AS SELECT * FROM STREAM(raw);
            """);
    UpdateResult result = p.run();
    assertTrue(result.succeeded());
    assertEquals(List.of("[1,x]", "[3,null]"), p.rows("SELECT id, v FROM clean"));
    assertEquals(1, outcome(result, "clean").rowsDropped());

    List<String> quality = p.spark().read().format("delta").load(p.root().resolve(".sluice/system/event_log").toString())
        .where("origin.flow_name = 'clean' AND level = 'METRICS'")
        .selectExpr("get_json_object(details, '$.data_quality')")
        .collectAsList().stream().map(r -> r.getString(0)).collect(Collectors.toList());
    assertEquals(1, quality.size());
    assertEquals("{\"dropped_records\":1,\"rescued_records\":0,\"expectations\":["
        + "{\"name\":\"positive\",\"dataset\":\"clean\",\"passed_records\":2,\"failed_records\":1},"
        + "{\"name\":\"has_v\",\"dataset\":\"clean\",\"passed_records\":2,\"failed_records\":1}]}", quality.get(0));
  }

  @Test
  void failingFlowSkipsItsDownstreamButNotItsSiblings() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n{\"id\": -2, \"v\": \"y\"}\n")
        .sql(BRONZE + """
            CREATE STREAMING TABLE strict (
              CONSTRAINT positive EXPECT (id > 0) ON VIOLATION FAIL UPDATE
            ) AS SELECT * FROM STREAM(raw);
            CREATE MATERIALIZED VIEW strict_count AS SELECT count(*) AS n FROM strict;
            CREATE MATERIALIZED VIEW raw_count AS SELECT count(*) AS n FROM raw;
            """);
    UpdateResult result = p.run();
    assertFalse(result.succeeded());
    assertEquals(FlowState.FAILED, outcome(result, "strict").state());
    assertTrue(outcome(result, "strict").errorMessage().orElseThrow().contains("expectation 'positive'"));
    assertEquals(FlowState.SKIPPED, outcome(result, "strict_count").state());
    assertEquals(FlowState.COMPLETED, outcome(result, "raw_count").state());
    assertEquals(List.of(), p.rows("SELECT * FROM strict"), "nothing of the failed batch is committed");
    assertEquals(List.of("[2]"), p.rows("SELECT * FROM raw_count"));
  }

  @Test
  void fullRefreshClearsAndReprocessesAndSelectiveRefreshExcludesTheRest() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n")
        .sql("""
            CREATE STREAMING TABLE kept TBLPROPERTIES ('pipelines.reset.allowed' = 'false')
            AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, v STRING');
            CREATE STREAMING TABLE derived AS SELECT * FROM STREAM(kept);
            """);
    assertTrue(p.run().succeeded());
    p.spark().sql("INSERT INTO " + p.database() + ".kept (id, v) VALUES (99, 'manual')");
    p.spark().sql("INSERT INTO " + p.database() + ".derived (id, v) VALUES (100, 'stray')");

    UpdateResult refreshed = p.run(new UpdateOptions(false, List.of("derived"), List.of()));
    assertEquals(FlowState.EXCLUDED, outcome(refreshed, "kept").state());
    assertEquals(List.of("[1,x]", "[99,manual]"), p.rows("SELECT id, v FROM derived"), "cleared, then all of kept read again");

    SluiceException refused = assertThrows(SluiceException.class,
        () -> p.run(new UpdateOptions(false, List.of("kept"), List.of())));
    assertEquals("RESET_NOT_ALLOWED", refused.errorClass());

    p.spark().sql("INSERT INTO " + p.database() + ".derived (id, v) VALUES (100, 'stray')");
    UpdateResult all = p.run(new UpdateOptions(true, List.of(), List.of()));
    assertTrue(all.succeeded());
    assertEquals(1, all.warnings().size());
    assertTrue(all.warnings().get(0).contains("kept"));
    assertEquals(List.of("[1,x]", "[99,manual]"), p.rows("SELECT id, v FROM kept"), "a table that may not be reset keeps its rows");
    assertEquals(List.of("[1,x]", "[99,manual]"), p.rows("SELECT id, v FROM derived"));
  }

  @Test
  void fullRefreshOfATableOthersStreamFromNamesThem() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n")
        .sql(BRONZE + "CREATE STREAMING TABLE clean AS SELECT * FROM STREAM(raw);");
    assertTrue(p.run().succeeded());
    SluiceException refused = assertThrows(SluiceException.class,
        () -> p.run(new UpdateOptions(false, List.of("raw"), List.of())));
    assertEquals("FULL_REFRESH_ORPHANS_STREAM", refused.errorClass());
    assertTrue(refused.getMessage().contains("--full-refresh raw,clean"), refused.getMessage());

    assertTrue(p.run(new UpdateOptions(false, List.of("raw", "clean"), List.of())).succeeded());
    assertEquals(List.of("[1,x]"), p.rows("SELECT id, v FROM clean"));
  }

  @Test
  void javaDefinitionsRegisterIntoTheSameGraph() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n{\"id\": 2, \"v\": \"y\"}\n")
        .sql(BRONZE);
    p.libraries("- glob: {include: transformations/*.sql}", "- class: " + JavaDefinitions.class.getName());
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[2,y]"), p.rows("SELECT id, v FROM java_even"));
    assertEquals(List.of("[x,1]", "[y,1]"), p.rows("SELECT * FROM java_counts"));
  }

  @Test
  void javaDefinitionsLoadFromAJarInThePipelineFolder() throws Exception {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"x\"}\n{\"id\": 2, \"v\": \"y\"}\n")
        .sql(BRONZE);
    JarBuilder.compileToJar(p.root().resolve("lib/definitions.jar"), "example.FromJar", """
        package example;
        public class FromJar implements io.sluice.api.PipelineDefinition {
          public void define(io.sluice.api.Pipeline p) {
            p.materializedView("from_jar").query(ctx -> ctx.read("raw").where("id > 1"));
          }
        }
        """);
    p.libraries("- glob: {include: transformations/*.sql}", "- glob: {include: lib/*.jar}", "- class: example.FromJar");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[2,y]"), p.rows("SELECT id, v FROM from_jar"));
  }

  static FlowOutcome outcome(UpdateResult result, String flow) {
    Map<String, FlowOutcome> byName = result.flows().stream().collect(Collectors.toMap(FlowOutcome::flow, f -> f));
    return byName.get(flow);
  }
}
