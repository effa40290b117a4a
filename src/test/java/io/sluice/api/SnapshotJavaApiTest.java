package io.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Origin;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.GraphException;
import io.sluice.graph.GraphRegistry;
import io.sluice.graph.GraphResolver;
import io.sluice.graph.KindChecks;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SourceLines;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** The Java API of AUTO CDC FROM SNAPSHOT flows: its checks, before any data is read. */
class SnapshotJavaApiTest {
  /** The errors these tests expect come from resolution, before any kind's checks. */
  private static final KindChecks NO_KIND_CHECKS = new KindChecks() {
    @Override
    public void checkFlow(SparkSession spark, ResolvedGraph graph, ResolvedFlow flow) {}

    @Override
    public void checkSink(SparkSession spark, DatasetDefinition sink) {}
  };

  private final GraphRegistry registry = new GraphRegistry("spark_catalog", "default");
  private final RegisteringPipeline api = new RegisteringPipeline(registry);

  @Test
  void aMissingTargetOrSourceNamesTheCallersLine() {
    int line = SourceLines.here(); AutoCdcFromSnapshotFlowBuilder noTarget = api.autoCdcFromSnapshotFlow("f").source("s").keys("k");
    GraphException e = assertThrows(GraphException.class, noTarget::create);
    assertEquals("FLOW_WITHOUT_TARGET", e.errorClass());
    assertEquals(Origin.of(SnapshotJavaApiTest.class.getName(), line), e.origin());

    AutoCdcFromSnapshotFlowBuilder noSource = api.autoCdcFromSnapshotFlow("g").into("t").keys("k");
    e = assertThrows(GraphException.class, noSource::create);
    assertEquals("AUTO_CDC_WITHOUT_SOURCE", e.errorClass());
    assertTrue(e.getMessage().contains("source(table) or source(versionType, function)"), e.getMessage());
  }

  @Test
  void settingsAreCheckedAsInSql() {
    assertEquals("AUTO_CDC_WITHOUT_KEYS", failure(api.autoCdcFromSnapshotFlow("a").into("t").source("s")));
    assertEquals("AUTO_CDC_INVALID_SCD_TYPE",
        failure(api.autoCdcFromSnapshotFlow("b").into("t").source("s").keys("k").storedAsScdType(0)));
    assertEquals("AUTO_CDC_TRACK_HISTORY_WITH_SCD1",
        failure(api.autoCdcFromSnapshotFlow("c").into("t").source("s").keys("k").trackHistoryExcept("v")));
    assertEquals(List.of(), registry.toGraph().flows(), "nothing is registered");
  }

  @Test
  void aFunctionSourceNeedsTheTargetsDeclaredColumns() {
    api.streamingTable("t").create();
    int line = SourceLines.here(); api.autoCdcFromSnapshotFlow("f").into("t").keys("id")
        .source(Long.class, (ctx, last) -> Optional.empty())
        .create();
    GraphException e = assertThrows(GraphException.class,
        () -> GraphResolver.resolve(SharedSpark.session(), registry.toGraph(), NO_KIND_CHECKS));
    assertEquals("SNAPSHOT_FUNCTION_WITHOUT_SCHEMA", e.errorClass());
    assertEquals(Origin.of(SnapshotJavaApiTest.class.getName(), line), e.origin());
    assertTrue(e.getMessage().contains("declare the columns of 't'"), e.getMessage());
  }

  @Test
  void versionsMustBeSingleOrderableValues() {
    api.streamingTable("t").schema("id INT").create();
    api.autoCdcFromSnapshotFlow("f").into("t").keys("id")
        .source(UUID.class, (ctx, last) -> Optional.empty())
        .create();
    GraphException e = assertThrows(GraphException.class,
        () -> GraphResolver.resolve(SharedSpark.session(), registry.toGraph(), NO_KIND_CHECKS));
    assertEquals("SNAPSHOT_VERSION_NOT_ORDERABLE", e.errorClass(), e.getMessage());
  }

  private static String failure(AutoCdcFromSnapshotFlowBuilder flow) {
    GraphException e = assertThrows(GraphException.class, flow::create);
    assertEquals(SnapshotJavaApiTest.class.getName(), e.origin().source());
    return e.errorClass();
  }
}
