package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testing.CommandResult;
import io.sluice.testing.PipelineFolder;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart on a real Spark standalone cluster (issue 14, first step): {@code
 * bin/sluice-local-cluster} starts a master and two workers as JVMs of their own, the
 * {@code -spark.jar} is submitted to it with SparkSubmit in client mode, its executors run on the
 * workers, and the tables it makes hold exactly the rows of the embedded run of the same folder.
 */
class ClusterE2E {
  private static final Path SCRIPT = Sluice.REPO.resolve("bin/sluice-local-cluster");

  @TempDir Path dir;

  @Test
  void theQuickstartOnAClusterGivesTheEmbeddedRunsTables() throws Exception {
    Path cluster = dir.resolve("cluster");
    Path onCluster = dir.resolve("on-cluster");
    Path embedded = dir.resolve("embedded");
    PipelineFolder.copyOf(Sluice.REPO.resolve("examples/quickstart"), onCluster);
    PipelineFolder.copyOf(Sluice.REPO.resolve("examples/quickstart"), embedded);
    String port = String.valueOf(freePort());
    script(Duration.ofMinutes(3), "start", "--port", port, "--workers", "2", "--dir", cluster.toString());
    try {
      Path storage = onCluster.resolve(".sluice");
      CommandResult submitted = script(Duration.ofMinutes(5), "submit", "--port", port, "--dir", cluster.toString(),
          // The catalog the embedded run keeps under the pipeline's storage: here the driver's, so
          // that sluice query reads the cluster's tables afterwards.
          "--conf", "spark.sql.catalogImplementation=hive",
          "--conf", "spark.sql.warehouse.dir=" + storage.resolve("warehouse"),
          "--conf", "spark.hadoop.javax.jdo.option.ConnectionURL=jdbc:derby:;databaseName="
              + storage.resolve("metastore/metastore_db") + ";create=true",
          "--conf", "spark.hadoop.datanucleus.schema.autoCreateAll=true",
          "--conf", "spark.hadoop.hive.metastore.schema.verification=false",
          "run", onCluster.toString());
      assertTrue(submitted.stdout().contains("COMPLETED"), submitted::toString);
      for (int worker = 1; worker <= 2; worker++) {
        assertTrue(hasExecutor(cluster.resolve("worker-" + worker)), "worker " + worker + " ran an executor of the update");
      }
    } finally {
      script(Duration.ofMinutes(1), "stop", "--dir", cluster.toString());
    }

    Sluice.PROCESS.ok(embedded, "run");
    Map<String, String> comparisons = new LinkedHashMap<>();
    for (String table : List.of("orders_raw", "orders_clean", "customer_revenue")) {
      // _rescued_data names the file it came from by its path, which differs between the folders.
      String columns = table.equals("orders_raw") ? "* EXCEPT (_rescued_data)" : "*";
      String ours = "SELECT " + columns + " FROM " + table;
      String theirs = "SELECT " + columns + " FROM delta.`" + onCluster.resolve(".sluice/warehouse/" + table) + "`";
      comparisons.put(table, "SELECT (SELECT count(*) FROM " + table + ") AS n,"
          + " (SELECT count(*) FROM (" + ours + " EXCEPT ALL " + theirs + ")) AS only_embedded,"
          + " (SELECT count(*) FROM (" + theirs + " EXCEPT ALL " + ours + ")) AS only_cluster");
    }
    Map<String, List<JsonNode>> compared = Sluice.PROCESS.queryAll(embedded, comparisons);
    for (String table : comparisons.keySet()) {
      JsonNode row = compared.get(table).get(0);
      assertTrue(row.get("n").asLong() > 0, table + " has rows: " + row);
      assertEquals(0, row.get("only_embedded").asLong(), table + ": " + row);
      assertEquals(0, row.get("only_cluster").asLong(), table + ": " + row);
    }
  }

  private static boolean hasExecutor(Path workerDir) throws IOException {
    try (Stream<Path> files = Files.walk(workerDir)) {
      return files.anyMatch(f -> f.getFileName().toString().equals("stderr") && f.toString().contains("/app-"));
    }
  }

  private static int freePort() throws IOException {
    // The master's web UI takes the next port.
    for (int i = 0; i < 20; i++) {
      try (ServerSocket socket = new ServerSocket(0)) {
        int port = socket.getLocalPort();
        try (ServerSocket next = new ServerSocket(port + 1)) {
          return port;
        } catch (IOException taken) {
          // try another
        }
      }
    }
    throw new IOException("no two free ports in a row");
  }

  private CommandResult script(Duration timeout, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(Arrays.asList(args));
    Path out = Files.createTempFile(dir, "cluster", ".out");
    Path err = Files.createTempFile(dir, "cluster", ".err");
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor();
    }
    CommandResult result = new CommandResult(command, process.isAlive() ? -1 : process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8),
        Duration.ofNanos(System.nanoTime() - start));
    System.out.printf("[e2e] sluice-local-cluster %s -> exit %d in %.1f s%n", args[0], result.exit(), result.took().toMillis() / 1000.0);
    assertEquals(0, result.exit(), result::toString);
    return result;
  }
}
