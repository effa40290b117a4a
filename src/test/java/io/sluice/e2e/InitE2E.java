package io.sluice.e2e;

import static io.sluice.testsupport.JsonRows.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.ExampleTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new user's first steps: init, dry-run, run, query, events. */
class InitE2E {
  @TempDir Path tmp;

  @Test
  void initDryRunRunQueryEvents() throws IOException {
    Path dir = tmp.resolve("my-shop");
    CommandResult init = Sluice.PROCESS.ok(tmp, "init", "my-shop");
    assertTrue(Files.isRegularFile(dir.resolve("spark-pipeline.yml")), init::toString);

    CommandResult dryRun = Sluice.PROCESS.ok(dir, "dry-run");
    for (String dataset : List.of("orders_raw", "orders_clean", "customer_revenue")) {
      assertTrue(dryRun.stdout().contains(dataset), () -> "dry-run lists " + dataset + ": " + dryRun);
    }
    assertEquals(List.of(), Sluice.tablesOnDisk(dir), "dry-run creates no table");
    assertTrue(!Files.exists(dir.resolve(".sluice/checkpoints")), "dry-run starts no flow");
    assertTrue(!Files.exists(dir.resolve(".sluice/system/event_log")), "dry-run records no update");

    // The hint init prints is what a new user types next: it must work as printed, from where init ran.
    String hint = init.stdout().lines().filter(l -> l.startsWith("next: ")).findFirst().orElseThrow(() -> new AssertionError("init prints a next step: " + init));
    assertEquals("next: cd my-shop && " + Sluice.LAUNCHER + " run", hint);
    CommandResult run = shell(tmp, hint.substring("next: ".length()));
    assertEquals(0, run.exit(), run::toString);
    assertTrue(run.stdout().contains("COMPLETED"), run::toString);
    // Output to a pipe shows each flow as it goes, as a terminal does.
    assertTrue(run.stdout().lines().anyMatch(l -> l.matches("\\s+orders_raw\\s+RUNNING")), run::toString);

    // The scaffold's rules: orders without an id or with a non-positive amount are dropped,
    // customers are trimmed and lower-cased. Expected rows come from the scaffolded data.
    ExampleTables.Expected expected = ExampleTables.quickstart(dir.resolve("data/orders")).stream()
        .filter(t -> t.table().equals("orders_clean")).findFirst().orElseThrow();
    assertTrue(expected.rows().size() >= 3, "the sample has data");
    List<JsonNode> clean = Sluice.PROCESS.query(dir, "SELECT * FROM orders_clean ORDER BY order_id");
    assertEquals(expected.rows(), rows(clean, expected.columns().toArray(String[]::new)));
    List<Long> ids = clean.stream().map(r -> r.get("order_id").asLong()).toList();
    assertEquals(ids.stream().sorted().toList(), ids, "ORDER BY order_id is kept in the JSON Lines output");

    CommandResult events = Sluice.PROCESS.ok(dir, "events");
    String out = events.stdout();
    assertTrue(out.contains("update "), out);
    for (String flow : List.of("orders_raw", "orders_clean", "customer_revenue")) {
      assertTrue(out.lines().anyMatch(l -> l.contains(flow) && l.contains("COMPLETED")),
          () -> "events shows that " + flow + " completed:\n" + out);
    }
    assertTrue(out.lines().anyMatch(l -> l.contains("orders_clean") && l.contains("dropped")),
        () -> "events shows the dropped rows:\n" + out);
  }

  /**
   * As with Spark's spark-pipelines: {@code init --name} makes the folder under the current one,
   * and a command with no folder named finds the spec in the nearest folder above.
   */
  @Test
  void initByNameThenADryRunFromASubfolder() {
    CommandResult init = Sluice.PROCESS.ok(tmp, "init", "--name", "hello-pipelines");
    assertTrue(init.stdout().contains("created pipeline 'hello-pipelines' in " + tmp.resolve("hello-pipelines")), init::toString);

    CommandResult dryRun = Sluice.PROCESS.ok(tmp.resolve("hello-pipelines/transformations"), "dry-run");
    assertTrue(dryRun.stdout().contains("pipeline 'hello-pipelines' is valid"), dryRun::toString);
    // Found above the working folder: the command says which pipeline it acts on.
    assertTrue(dryRun.stderr().contains("(pipeline 'hello-pipelines' of " + tmp.resolve("hello-pipelines/spark-pipeline.yml") + ")"),
        dryRun::toString);

    CommandResult again = Sluice.PROCESS.run(tmp, "init", "--name", "hello-pipelines");
    assertEquals(1, again.exit(), again::toString);
    assertTrue(again.stderr().contains(tmp.resolve("hello-pipelines") + " already exists"), again::toString);

    CommandResult nowhere = Sluice.PROCESS.run(tmp, "dry-run");
    assertEquals(1, nowhere.exit(), nowhere::toString);
    assertTrue(nowhere.stderr().contains("SPEC_NOT_FOUND") && nowhere.stderr().contains("nor in a folder above it"), nowhere::toString);
  }

  /** Runs {@code command} with bash in {@code dir}, as a user would paste it. */
  private static CommandResult shell(Path dir, String command) throws IOException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process process = new ProcessBuilder("bash", "-c", command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    return new Sluice.Running(process, List.of("bash", "-c", command), out, err).await(Sluice.TIMEOUT);
  }
}
