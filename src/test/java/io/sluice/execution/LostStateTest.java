package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import io.sluice.storage.StoragePath;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table dropped, or a checkpoint deleted, behind the pipeline's back (SEMANTICS §7.4): the
 * next update rebuilds the table from its sources, or refuses naming the full refresh that
 * does; it never leaves a table empty for good, nor appends its rows a second time.
 */
class LostStateTest {
  @TempDir Path dir;

  private TestPipeline pipeline() {
    return withRaw(dir, """
        CREATE STREAMING TABLE evens AS SELECT * FROM STREAM(raw) WHERE id % 2 = 0;
        CREATE STREAMING TABLE copy AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
        """);
  }

  /** A pipeline in {@code dir} whose table {@code raw} streams ids 1 and 2 from JSON files, with {@code more} definitions. */
  static TestPipeline withRaw(Path dir, String more) {
    return new TestPipeline(dir)
        .write("landing/a.json", "{\"id\": 1}\n{\"id\": 2}\n")
        .sql("CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');\n"
            + more);
  }

  @Test
  void aDroppedTableIsRebuiltFromItsSources() {
    TestPipeline p = pipeline();
    assertTrue(p.run().succeeded());
    p.spark().sql("DROP TABLE " + p.database() + ".copy");
    p.write("landing/b.json", "{\"id\": 3}\n");

    UpdateResult result = p.run();
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("[1]", "[2]", "[3]"), p.rows("SELECT id FROM copy"), "every row of its sources, once");
    assertTrue(result.warnings().stream().anyMatch(w -> w.contains("'copy' was dropped outside the pipeline: rebuilt")),
        result.warnings().toString());
    assertTrue(p.run().succeeded());
    assertEquals(3, p.rows("SELECT id FROM copy").size(), "and it goes on from there");
  }

  @Test
  void aDroppedTableThatOthersStreamFromNeedsThemRefreshedToo() {
    TestPipeline p = pipeline();
    assertTrue(p.run().succeeded());
    p.spark().sql("DROP TABLE " + p.database() + ".raw");

    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("TABLE_DROPPED_OUTSIDE", e.errorClass());
    assertTrue(e.getMessage().contains("run with --full-refresh raw,evens"), e.getMessage());

    assertTrue(p.run(new UpdateOptions(false, List.of("raw", "evens"), List.of())).succeeded());
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM raw"));
    assertEquals(List.of("[2]"), p.rows("SELECT id FROM evens"));
  }

  @Test
  void deletedCheckpointsAreRefusedUntilTheTableIsRebuilt() throws IOException {
    TestPipeline p = pipeline();
    assertTrue(p.run().succeeded());
    StoragePath.local(dir.resolve(".sluice/checkpoints")).delete();

    SluiceException e = assertThrows(SluiceException.class, p::run);
    assertEquals("CHECKPOINT_LOST", e.errorClass());
    assertTrue(e.getMessage().contains("the checkpoint of flow 'raw' was deleted")
        && e.getMessage().contains("--full-refresh raw"), e.getMessage());
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM raw"), "nothing appended twice");

    assertTrue(p.run(new UpdateOptions(true, List.of(), List.of())).succeeded());
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM raw"));
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM copy"));
  }

  @Test
  void aNewFlowIntoATableThatHoldsRowsIsNotALostCheckpoint() {
    TestPipeline p = pipeline();
    assertTrue(p.run().succeeded());
    p.write("transformations/more.sql", "CREATE FLOW more AS INSERT INTO copy BY NAME SELECT id * 10 AS id FROM STREAM(raw);");
    assertTrue(p.run().succeeded());
    assertEquals(List.of("[10]", "[1]", "[20]", "[2]"), p.rows("SELECT id FROM copy"), "the new flow reads raw from its start");
  }
}
