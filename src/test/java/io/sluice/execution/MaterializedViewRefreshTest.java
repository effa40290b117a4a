package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.TestPipeline;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A materialized view is recomputed when what it reads committed a new version, or its
 * definition changed, and not otherwise: an update with no new input leaves it as it was,
 * without a commit (SEMANTICS §7.2).
 */
class MaterializedViewRefreshTest {
  @TempDir Path dir;

  private static FlowOutcome flow(UpdateResult result, String dataset) {
    return result.flows().stream().filter(f -> f.dataset().equals(dataset)).findFirst().orElseThrow();
  }

  @Test
  void recomputedOnlyWhenAnInputOrTheDefinitionChanged() {
    TestPipeline p = new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1}\n{\"id\": 2}\n")
        .sql("""
            CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
            CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM raw;
            CREATE MATERIALIZED VIEW stamped AS SELECT count(*) AS n, current_timestamp() AS at FROM raw;
            """);
    assertEquals(1, flow(p.run(), "total").batches());
    long version = p.spark().sql("DESCRIBE HISTORY " + p.database() + ".total").count();

    UpdateResult idle = p.run();
    assertEquals(0, flow(idle, "total").batches(), "raw has no new version: total is not recomputed");
    assertEquals(1, flow(idle, "stamped").batches(), "a view that reads the clock always is");
    assertEquals(version, p.spark().sql("DESCRIBE HISTORY " + p.database() + ".total").count(), "no commit");

    p.write("landing/b.json", "{\"id\": 3}\n");
    assertEquals(1, flow(p.run(), "total").batches());
    assertEquals(List.of("[3]"), p.rows("SELECT n FROM total"));

    p.sql("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
        CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM raw WHERE id > 1;
        """);
    assertEquals(1, flow(p.run(), "total").batches(), "a changed query is recomputed");
    assertEquals(List.of("[2]"), p.rows("SELECT n FROM total"));

    p.sql("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
        CREATE MATERIALIZED VIEW total (CONSTRAINT none EXPECT (n > 5) ON VIOLATION DROP ROW)
        AS SELECT count(*) AS n FROM raw WHERE id > 1;
        """);
    assertEquals(1, flow(p.run(), "total").batches(), "so is one with a new expectation");
    assertEquals(List.of(), p.rows("SELECT n FROM total"));
    assertTrue(p.run().succeeded());
  }
}
