package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming flow whose Delta sources have no new version, and whose folders no new file, since
 * it last read them all is not started, and says so in the event log; a new version, a new source or a full refresh starts it
 * again, and no row is lost or read twice.
 */
class IdleStreamTest {
  @TempDir Path dir;

  @Test
  void aFlowWithNothingNewIsNotStarted() {
    TestPipeline p = new TestPipeline(dir).write("landing/a.json", "{\"id\": 1}\n{\"id\": 2}\n");
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".outside (id INT) USING delta");
    p.spark().sql("INSERT INTO " + p.database() + ".outside VALUES (10)");
    p.sql("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
        CREATE STREAMING TABLE clean AS SELECT id FROM STREAM(raw) WHERE id > 0;
        CREATE STREAMING TABLE mirror AS SELECT id FROM STREAM(outside);
        """);
    p.run();
    assertEquals(List.of(), notStarted(p), "a first run starts every stream");

    p.run();
    assertEquals(List.of("clean", "mirror", "raw"), notStarted(p),
        "the streams of Delta tables with no new version, and of a folder with no new file, are not started");
    assertEquals(List.of("[1]", "[2]"), p.rows("SELECT id FROM clean"));

    p.write("landing/b.json", "{\"id\": 3}\n");
    p.spark().sql("INSERT INTO " + p.database() + ".outside VALUES (11)");
    p.run();
    assertEquals(List.of(), notStarted(p), "a new file starts raw; new versions of raw and outside start clean and mirror");
    assertEquals(List.of("[1]", "[2]", "[3]"), p.rows("SELECT id FROM clean"));
    assertEquals(List.of("[10]", "[11]"), p.rows("SELECT id FROM mirror"));

    p.sql("""
        CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
        CREATE STREAMING TABLE clean AS SELECT id FROM STREAM(raw) WHERE id > 0;
        CREATE FLOW also_outside AS INSERT INTO clean BY NAME SELECT id FROM STREAM(outside);
        CREATE STREAMING TABLE mirror AS SELECT id FROM STREAM(outside);
        """);
    p.run();
    assertEquals(List.of("clean", "mirror", "raw"), notStarted(p), "a new flow starts; the others have nothing new");
    assertEquals(List.of("[10]", "[11]", "[1]", "[2]", "[3]"), p.rows("SELECT id FROM clean"));

    p.run(new UpdateOptions(false, List.of("mirror"), List.of()));
    assertEquals(List.of("[10]", "[11]"), p.rows("SELECT id FROM mirror"), "a full refresh reads its sources again");
  }

  /** The flows the latest update did not start, for want of anything new. */
  private List<String> notStarted(TestPipeline p) {
    return p.rows("SELECT origin.flow_name FROM delta.`" + dir.resolve(".sluice/system/event_log") + "`"
        + " WHERE origin.update_id = (SELECT origin.update_id FROM delta.`" + dir.resolve(".sluice/system/event_log")
        + "` ORDER BY timestamp DESC LIMIT 1) AND message LIKE '%no new version since it last read them%' ORDER BY 1")
        .stream().map(r -> r.substring(1, r.length() - 1)).toList();
  }
}
