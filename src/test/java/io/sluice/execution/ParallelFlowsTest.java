package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Independent flows at once (SEMANTICS §10.2): with {@code pipelines.maxParallelFlows} above 1,
 * flows that do not read each other's tables run together, each in a session of its own, so
 * their settings and commit tags stay theirs; a flow still waits for what it reads, and a failed
 * one's readers are skipped while the others complete.
 */
class ParallelFlowsTest {
  private static final String SETTING = "pipelines.maxParallelFlows";

  @TempDir Path dir;

  @AfterEach
  void reset() {
    new TestPipeline(dir).spark().conf().unset(SETTING);
  }

  @Test
  void independentFlowsRunTogetherAndReadersWaitForWhatTheyRead() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a/1.json", "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n")
        .write("landing/b/1.json", "{\"id\": 10}\n")
        .write("landing/c/1.json", "{\"id\": 7}\n")
        .sql("""
            CREATE STREAMING TABLE a AS SELECT * FROM STREAM read_files('landing/a', format => 'json', schema => 'id INT');
            CREATE STREAMING TABLE b AS SELECT * FROM STREAM read_files('landing/b', format => 'json', schema => 'id INT');
            CREATE TEMPORARY VIEW a_big AS SELECT * FROM a WHERE id > 1;
            CREATE MATERIALIZED VIEW counts AS SELECT 'a' AS t, count(*) AS n FROM a_big
              UNION ALL SELECT 'b', count(*) FROM b;
            CREATE STREAMING TABLE bad (CONSTRAINT negative EXPECT (id < 0) ON VIOLATION FAIL UPDATE)
            AS SELECT * FROM STREAM read_files('landing/c', format => 'json', schema => 'id INT');
            CREATE STREAMING TABLE after_bad AS SELECT * FROM STREAM(bad);
            """);
    p.spark().conf().set(SETTING, "2");
    UpdateResult result = p.run();

    Map<String, String> states = result.flows().stream().collect(Collectors.toMap(FlowOutcome::dataset, f -> f.state().name()));
    assertEquals(Map.of("a", "COMPLETED", "b", "COMPLETED", "a_big", "COMPLETED", "counts", "COMPLETED", "bad", "FAILED",
        "after_bad", "SKIPPED"), states);
    assertEquals(List.of("[a,2]", "[b,1]"), p.rows("SELECT t, n FROM counts"), "counts waited for a, a_big and b");

    String log = "delta.`" + dir.resolve(".sluice/system/event_log") + "`";
    List<Row> progress = p.spark().sql("SELECT origin.flow_name, get_json_object(details, '$.state') AS state, sequence FROM "
        + log + " WHERE event_type = 'flow_progress' AND get_json_object(details, '$.state') IN ('RUNNING', 'COMPLETED')")
        .collectAsList();
    assertTrue(sequence(progress, "b", "RUNNING") < sequence(progress, "a", "COMPLETED")
        && sequence(progress, "a", "RUNNING") < sequence(progress, "b", "COMPLETED"), "a and b ran at the same time: " + progress);
    assertTrue(sequence(progress, "counts", "RUNNING") > sequence(progress, "a", "COMPLETED")
        && sequence(progress, "counts", "RUNNING") > sequence(progress, "b", "COMPLETED"), "counts started after a and b: " + progress);

    for (String table : List.of("a", "b")) {
      String tag = p.spark().sql("DESCRIBE HISTORY " + p.database() + "." + table).where("operation = 'WRITE'")
          .first().getAs("userMetadata");
      assertTrue(tag.contains("\"flow\":\"" + table + "\""), "the commit of " + table + " names its own flow: " + tag);
    }
  }

  @Test
  void aLimitThatIsNoWholeNumberIsRefusedBeforeAnythingRuns() {
    TestPipeline p = new TestPipeline(dir).write("landing/a/1.json", "{\"id\": 1}\n")
        .sql("CREATE STREAMING TABLE a AS SELECT * FROM STREAM read_files('landing/a', format => 'json', schema => 'id INT');");
    p.spark().conf().set(SETTING, "0");
    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("INVALID_CONFIGURATION", e.errorClass());
    assertTrue(e.getMessage().contains("pipelines.maxParallelFlows to '0'"), e.getMessage());
    assertTrue(!p.spark().catalog().databaseExists(p.database()) || p.spark().sql("SHOW TABLES IN " + p.database()).isEmpty(),
        "no table made");
  }

  private static long sequence(List<Row> progress, String flow, String state) {
    return progress.stream().filter(r -> flow.equals(r.getString(0)) && state.equals(r.getString(1)))
        .mapToLong(r -> r.getLong(2)).findFirst().orElseThrow(() -> new AssertionError(flow + " " + state + " in " + progress));
  }
}
