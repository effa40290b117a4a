package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.api.AutoCdcFlowBuilder;
import io.sluice.api.RegisteringPipeline;
import io.sluice.graph.GraphException;
import io.sluice.graph.GraphRegistry;
import io.sluice.testsupport.SourceLines;
import io.sluice.testsupport.TestPipeline;
import io.sluice.testsupport.UsersExample;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTO CDC flows declared through the Java API (SEMANTICS §4.1: "Java API alike"). */
class AutoCdcJavaApiTest {

  @TempDir Path dir;

  private TestPipeline pipeline() {
    return UsersExample.withSource(new TestPipeline(dir).libraries("- class: " + AutoCdcDefinitions.class.getName()));
  }

  private static void insert(TestPipeline p, String values) {
    UsersExample.insert(p, values);
  }

  private static void runOk(TestPipeline p) {
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
  }

  @Test
  void theDocumentedUsersExampleAsScdType1And2ThenNullUpdates() {
    TestPipeline p = pipeline();
    insert(p, UsersExample.EVENTS);
    runOk(p);
    assertEquals(UsersExample.SCD1, p.rows("SELECT * FROM users_scd1"));
    assertEquals(UsersExample.SCD2, p.rows("SELECT * FROM users_scd2"));
    // A change of city alone updates the open version in place; the delete closes it.
    assertEquals(List.of(
            "[123,Isabel,Chihuahua,1,6]", "[124,Raul,Oaxaca,1,null]",
            "[125,Mercedes,Guadalajara,2,null]", "[126,Lily,Cancun,2,null]"),
        p.rows("SELECT * FROM users_names"));
    assertEquals(UsersExample.SCD1, p.rows("SELECT * FROM users_once"));

    // IGNORE NULL UPDATES, on a second update (one pipeline for both: each update costs seconds).
    insert(p, "(124, null, 'Puebla', 'UPDATE', 7), (126, 'Lilian', null, 'UPDATE', 7)");
    runOk(p);
    assertEquals(List.of("[124,null,Puebla]", "[125,Mercedes,Guadalajara]", "[126,Lilian,null]"),
        p.rows("SELECT * FROM users_scd1"));
    assertEquals(List.of(
            "[123,Isabel,Chihuahua,1,6]", "[124,Raul,Puebla,1,null]",
            "[125,Mercedes,Guadalajara,2,null]", "[126,Lilian,Cancun,7,null]", "[126,Lily,Cancun,2,7]"),
        p.rows("SELECT * FROM users_names"));
  }

  // ---------------------------------------------------------------- errors, without Spark

  private final GraphRegistry registry = new GraphRegistry("spark_catalog", "default");
  private final RegisteringPipeline api = new RegisteringPipeline(registry);

  @Test
  void aMissingTargetOrSourceNamesTheCallersLine() {
    int line = SourceLines.here(); AutoCdcFlowBuilder noTarget = api.autoCdcFlow("f").source("s").keys("k").sequenceBy("q");
    GraphException e = assertThrows(GraphException.class, noTarget::create);
    assertEquals("FLOW_WITHOUT_TARGET", e.errorClass());
    assertEquals(Origin.of(AutoCdcJavaApiTest.class.getName(), line), e.origin());
    assertEquals("AUTO CDC flow 'f' needs into(target)", e.getMessage());

    line = SourceLines.here(); AutoCdcFlowBuilder noSource = api.autoCdcFlow("g").into("t").keys("k").sequenceBy("q");
    e = assertThrows(GraphException.class, noSource::create);
    assertEquals("AUTO_CDC_WITHOUT_SOURCE", e.errorClass());
    assertEquals(Origin.of(AutoCdcJavaApiTest.class.getName(), line), e.origin());
  }

  @Test
  void clausesAreCheckedAsInSql() {
    assertEquals("AUTO_CDC_WITHOUT_KEYS", failure(api.autoCdcFlow("a").into("t").source("s").sequenceBy("q")));
    assertEquals("AUTO_CDC_WITHOUT_KEYS", failure(api.autoCdcFlow("b").into("t").source("s").keys().sequenceBy("q")));
    assertEquals("AUTO_CDC_WITHOUT_SEQUENCE", failure(api.autoCdcFlow("c").into("t").source("s").keys("k")));
    assertEquals("AUTO_CDC_INVALID_SCD_TYPE",
        failure(api.autoCdcFlow("d").into("t").source("s").keys("k").sequenceBy("q").storedAsScdType(3)));
    assertEquals("AUTO_CDC_TRUNCATE_WITH_SCD2", failure(api.autoCdcFlow("e").into("t").source("s").keys("k")
        .sequenceBy("q").applyAsTruncateWhen("op = 'T'").storedAsScdType(2)));
    assertEquals("AUTO_CDC_TRACK_HISTORY_WITH_SCD1",
        failure(api.autoCdcFlow("f").into("t").source("s").keys("k").sequenceBy("q").trackHistoryOn("v")));
    assertEquals(List.of(), registry.toGraph().flows(), "nothing is registered");
  }

  private static String failure(AutoCdcFlowBuilder flow) {
    GraphException e = assertThrows(GraphException.class, flow::create);
    assertEquals(AutoCdcJavaApiTest.class.getName(), e.origin().source());
    return e.errorClass();
  }
}
