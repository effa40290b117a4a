package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retries (SEMANTICS §10.2): a flow that fails for a reason that may pass is run again, from
 * its checkpoint, after a wait, up to {@code pipelines.maxFlowRetryAttempts} times; one that
 * fails for a reason its rows will meet again (an expectation) is not.
 */
class FlowRetryTest {
  @TempDir Path dir;

  @AfterEach
  void reset() {
    System.clearProperty("sluice.test.retries");
    FlowRetryDefinitions.FAILURES_LEFT.set(0);
  }

  private TestPipeline pipeline(String sql) {
    return new TestPipeline(dir)
        .libraries("- glob: {include: transformations/**/*.sql}", "- class: " + FlowRetryDefinitions.class.getName())
        .write("landing/a.json", "{\"id\": 1}\n{\"id\": 2}\n")
        .sql("CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');\n"
            + sql);
  }

  @Test
  void aTransientFailureIsRetriedAndEveryRowWrittenOnce() {
    TestPipeline p = pipeline("");
    FlowRetryDefinitions.FAILURES_LEFT.set(1);
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM flaky"));
    List<String> warnings = p.rows("SELECT message FROM delta.`" + dir.resolve(".sluice/system/event_log")
        + "` WHERE level = 'WARN'");
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("flow 'flaky': failed (") && warnings.get(0).contains("retry 1 of 2 in 1 s"),
        warnings.toString());
  }

  @Test
  void noRetriesLeftFailsTheFlowAndSkipsItsReaders() {
    System.setProperty("sluice.test.retries", "0");
    TestPipeline p = pipeline("CREATE STREAMING TABLE after_flaky AS SELECT * FROM STREAM(flaky);");
    FlowRetryDefinitions.FAILURES_LEFT.set(1);
    UpdateResult result = p.run();
    assertFalse(result.succeeded());
    assertEquals(List.of("raw COMPLETED", "flaky FAILED", "after_flaky SKIPPED"),
        result.flows().stream().map(f -> f.dataset() + " " + f.state()).toList());
  }

  @Test
  void aViolatedExpectationIsNotRetried() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE checked (CONSTRAINT small EXPECT (id < 2) ON VIOLATION FAIL UPDATE)
        AS SELECT * FROM STREAM(raw);
        """);
    UpdateResult result = p.run();
    assertFalse(result.succeeded());
    assertEquals(List.of(), p.rows("SELECT message FROM delta.`" + dir.resolve(".sluice/system/event_log")
        + "` WHERE level = 'WARN' AND message LIKE '%retry%'"));
  }

  @Test
  void aRetryCountThatIsNoNumberIsRefusedBeforeAnythingRuns() {
    System.setProperty("sluice.test.retries", "twice");
    TestPipeline p = pipeline("");
    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("INVALID_TABLE_PROPERTY", e.errorClass());
    assertTrue(e.getMessage().contains("pipelines.maxFlowRetryAttempts of"), e.getMessage());
    assertFalse(p.spark().catalog().tableExists(p.database() + ".raw"));
  }

  /** The count may come from the spec's configuration instead of the table: the error says which, from a dry run on. */
  @Test
  void aRetryCountOfTheConfigurationThatIsNoNumberIsAConfigurationError() {
    TestPipeline p = new TestPipeline(dir).write("landing/a.json", "{\"id\": 1}\n")
        .sql("CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');");
    SparkSession session = p.spark().newSession();
    session.conf().set("pipelines.maxFlowRetryAttempts", "twice");

    SluiceException dryRun = assertThrows(SluiceException.class, () -> PipelineUpdate.validate(session, p.spec()));
    SluiceException e = assertThrows(SluiceException.class,
        () -> PipelineUpdate.run(session, p.spec(), UpdateOptions.DEFAULT, List.of()));

    for (SluiceException refused : List.of(dryRun, e)) {
      assertEquals("INVALID_CONFIGURATION", refused.errorClass());
      assertTrue(refused.getMessage().contains("the spec's configuration sets pipelines.maxFlowRetryAttempts to 'twice'"),
          refused.getMessage());
    }
    assertFalse(p.spark().catalog().tableExists(p.database() + ".raw"));
  }
}
