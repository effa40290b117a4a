package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.PipelineFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mistakes users make in keyed flows, planted one at a time in a pipeline whose tests
 * pass without them: {@code sluice test} fails on each, saying what differs. (A missing
 * {@code APPLY AS DELETE}: {@link TestCommandTest}.)
 */
class PlantedMistakesTest {
  @TempDir Path dir;

  @Test
  void aWrongSequenceByColumn() throws IOException {
    PipelineFolder.copyOf(AutoCdcExampleTest.EXAMPLE, dir);
    plant("transformations/users.sql", "SEQUENCE BY sequenceNum\nCOLUMNS * EXCEPT (operation, sequenceNum, _rescued_data)\nSTORED AS SCD TYPE 1",
        "SEQUENCE BY city\nCOLUMNS * EXCEPT (operation, sequenceNum, _rescued_data)\nSTORED AS SCD TYPE 1");
    String out = fails("a key updated twice in one batch keeps its newest row");
    assertTrue(out.contains("update 1, users_scd1 (tests/users.yml:"), out);
    assertTrue(out.contains("missing (expected, not found):\n        userId | city\n        ------ | -----\n        7      | Cusco\n"), out);
    assertTrue(out.contains("unexpected (found, not expected):\n        userId | city\n        ------ | -----\n        7      | Quito\n"), out);
  }

  @Test
  void aReplaceUsingKeyThatIsTooCoarse() throws IOException {
    Files.writeString(dir.resolve("spark-pipeline.yml"), "name: regions\nstorage: .sluice\nlibraries:\n  - glob:\n      include: transformations/*.sql\n");
    Files.createDirectories(dir.resolve("transformations"));
    Files.createDirectories(dir.resolve("data/events"));
    Files.writeString(dir.resolve("transformations/events.sql"), """
        CREATE OR REFRESH STREAMING TABLE region_events
        FLOW REPLACE USING (device_type) SEQUENCE BY seq BY NAME
        SELECT region_id, device_type, event_type, seq
        FROM STREAM read_files('data/events', format => 'json',
          schema => 'region_id INT, device_type STRING, event_type STRING, seq INT');
        """);
    Files.createDirectories(dir.resolve("tests"));
    Files.writeString(dir.resolve("tests/regions.yml"), """
        tests:
          - name: a region's events replace that region's only
            updates:
              - given:
                  json files data/events:
                    - {region_id: 1, device_type: phone, event_type: click, seq: 1}
                    - {region_id: 2, device_type: phone, event_type: view, seq: 1}
              - given:
                  json files data/events:
                    - {region_id: 1, device_type: phone, event_type: buy, seq: 2}
                expect:
                  region_events:
                    rows:
                      - {region_id: 1, event_type: buy}
                      - {region_id: 2, event_type: view}
        """);
    String out = fails("a region's events replace that region's only");
    assertTrue(out.contains("update 2, region_events (tests/regions.yml:13:13):\n"), out);
    assertTrue(out.contains("missing (expected, not found):\n        region_id | event_type\n        --------- | ----------\n        2         | view\n"), out);

    plant("transformations/events.sql", "REPLACE USING (device_type)", "REPLACE USING (region_id)");
    IN_PROCESS.ok(dir, "test");
  }

  @Test
  void aSnapshotKeyedByTheWrongColumn() throws IOException {
    PipelineFolder.copyOf(Path.of("examples/snapshot-cdc").toAbsolutePath(), dir);
    plant("transformations/customers.sql", "KEYS (id)\nSTORED AS SCD TYPE 1", "KEYS (city)\nSTORED AS SCD TYPE 1");
    String out = fails("a customer missing from an export is deleted, and comes back as a new version");
    assertTrue(out.contains("update 1: flow 'customers_flow' failed: transformations/customers.sql:11: flow 'customers_flow':"
        + " the snapshot of version 2026-01-01 has 2 rows with key {\"city\":\"Lima\"}; a snapshot holds one row per key."), out);
  }

  @Test
  void aDroppedExpectation() throws IOException {
    PipelineFolder.copyOf(AutoCdcExampleTest.EXAMPLE, dir);
    plant("transformations/users.sql", "CREATE OR REFRESH STREAMING TABLE users_cdc (\n"
        + "  CONSTRAINT parsed EXPECT (_rescued_data IS NULL) ON VIOLATION FAIL UPDATE\n)\n", "CREATE OR REFRESH STREAMING TABLE users_cdc\n");
    String out = fails("a change row that does not parse fails the update and changes nothing");
    assertTrue(out.contains("update 2, users_cdc (tests/users.yml:"), out);
    assertTrue(out.contains("expected FAILED with EXPECTATION_VIOLATION; flow 'users_cdc' ended COMPLETED"), out);
  }

  private void plant(String file, String right, String wrong) throws IOException {
    Path path = dir.resolve(file);
    String text = Files.readString(path);
    assertTrue(text.contains(right), "the mistake is planted where the text is: " + right);
    Files.writeString(path, text.replace(right, wrong));
  }

  /** Runs the test named and returns what it printed, checking that it failed. */
  private String fails(String test) {
    CommandResult result = IN_PROCESS.run(dir, "test", "--only", test);
    assertEquals(1, result.exit(), result::toString);
    assertTrue(result.stdout().contains("FAIL  " + test + "  ("), result::toString);
    return result.stdout();
  }
}
