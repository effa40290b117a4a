package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.TestPipeline;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** REPLACE USING flows through the real engine (SEMANTICS §2). */
class ReplaceUsingTest {
  @TempDir Path dir;

  private TestPipeline pipeline(String definitions) {
    TestPipeline p = new TestPipeline(dir).sql(definitions);
    p.spark().sql("CREATE DATABASE IF NOT EXISTS " + p.database());
    p.spark().sql("CREATE TABLE " + p.database() + ".events (region_id INT, device STRING, event STRING, seq INT) USING delta");
    return p;
  }

  private void insert(TestPipeline p, String values) {
    p.spark().sql("INSERT INTO " + p.database() + ".events VALUES " + values);
  }

  @Test
  void theDocumentsOpeningExample() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions
        FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'click', 1), (1, 'Android', 'conversion', 1), (2, 'iOS', 'click', 1), (2, 'desktop', 'click', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'iOS', 'click', 2), (1, 'Android', 'conversion', 2), (1, 'desktop', 'click', 2), "
        + "(3, 'iOS', 'click', 1), (3, 'desktop', 'click', 2)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of(
            "[1,Android,conversion,2]", "[1,desktop,click,2]", "[1,iOS,click,2]",
            "[2,desktop,click,1]", "[2,iOS,click,1]",
            "[3,desktop,click,2]"),
        p.rows("SELECT * FROM regions"));
  }

  @Test
  void equalAppendsLowerIsIgnoredNullKeysMatchAndTheLongFormWorks() {
    TestPipeline p = pipeline("""
        CREATE STREAMING TABLE regions;
        CREATE FLOW latest AS INSERT INTO regions BY NAME
        REPLACE USING (region_id, device) SEQUENCE BY seq
        SELECT * FROM STREAM(events);
        """);
    insert(p, "(1, 'iOS', 'a', 5), (NULL, 'iOS', 'b', 1), (2, NULL, 'c', 1)");
    assertTrue(p.run().succeeded());
    insert(p, "(1, 'iOS', 'late', 4), (1, 'iOS', 'same', 5), (NULL, 'iOS', 'newer', 2), (2, NULL, 'newer', 3)");
    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());
    assertEquals(List.of("[1,iOS,a,5]", "[1,iOS,same,5]", "[2,null,newer,3]", "[null,iOS,newer,2]"),
        p.rows("SELECT * FROM regions"));
    assertFalse(p.rows("SELECT * FROM regions").contains("[1,iOS,late,4]"));
  }
}
