package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;

import io.sluice.testsupport.ExampleTables;
import io.sluice.testsupport.PipelineFolder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code examples/quickstart} as shipped, run with {@code sluice run} and read with {@code sluice query}. */
class QuickstartExampleTest {
  @TempDir Path dir;

  /** Every landed order in orders_raw, the valid ones cleaned in orders_clean, their sums per customer. */
  @Test
  void theQuickstartGivesTheTablesItsRulesMakeOfItsData() {
    PipelineFolder.copyOf(Path.of("examples/quickstart").toAbsolutePath(), dir).inItsOwnDatabase();
    IN_PROCESS.ok(dir, "run");
    List<ExampleTables.Expected> expected = ExampleTables.of(Path.of(""), "quickstart");
    ExampleTables.assertHolds(expected, IN_PROCESS.queryAll(dir, ExampleTables.queries(expected, null)), "the quickstart run embedded");
  }
}
