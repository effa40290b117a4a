package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.ExampleTables;
import io.sluice.testsupport.PipelineFolder;
import io.sluice.testsupport.SluiceCommands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
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
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples on a real cluster (issue 14), all in one cluster's lifetime: {@code
 * bin/sluice-local-cluster} starts a Spark master and two workers, an S3 server and a Hive
 * metastore, each a JVM of its own; the {@code -spark.jar} is submitted with SparkSubmit, its
 * executors run on the workers, the pipelines' storage and tables are on {@code s3a://}, their
 * catalog the shared metastore; one runs in cluster mode (its driver on a worker). Bad
 * addresses fail at once with one line; the driver and a worker are killed mid-update; every
 * table ends with exactly the rows of a complete run ({@link ExampleTables}).
 */
@Order(1) // among the longest end-to-end tests: taken first by the thread that works from the front (see the pom)
class ClusterE2E {
  private static final Path SCRIPT = Sluice.REPO.resolve("bin/sluice-local-cluster");
  private static final List<String> EXAMPLES = List.of("quickstart", "auto-cdc", "snapshot-cdc");

  @TempDir Path dir;

  private Path cluster;
  private LocalCluster submit;
  private FileSystem bucket;

  @Test
  void theExamplesOnAClusterWithS3AndASharedMetastoreGiveTheirDocumentedTables() throws Exception {
    cluster = dir.resolve("cluster");
    submit = new LocalCluster();
    Map<String, Path> onCluster = new LinkedHashMap<>();
    for (String example : EXAMPLES) {
      onCluster.put(example, onCluster(example));
    }
    int s3Port = freePort(1);
    int metastorePort = freePort(1);
    script(Duration.ofMinutes(3), "start", "--port", String.valueOf(freePort(2)), "--workers", "2",
        "--s3-port", String.valueOf(s3Port), "--metastore-port", String.valueOf(metastorePort),
        "--dir", cluster.toString());
    try {
      bucket = bucket(s3Port);
      badAddressesFailAtOnceAndWriteNothing(onCluster.get("quickstart"));

      // The driver killed while the update writes, then submitted again: exactly once.
      Sluice.Running killed = submit.start(onCluster.get("quickstart"), "run");
      awaitTrue(Duration.ofMinutes(3), () -> output(killed).contains("orders_clean"), () -> "the update reached orders_clean: " + output(killed));
      killed.process.destroyForcibly().waitFor();
      assertTrue(submit.ok(onCluster.get("quickstart"), "run").stdout().contains("COMPLETED"));

      // In cluster mode: the master starts the driver on a worker.
      CommandResult inClusterMode = submit.ok(onCluster.get("snapshot-cdc"), "--cluster-mode", "run", onCluster.get("snapshot-cdc").toString());
      assertTrue(inClusterMode.stdout().contains("COMPLETED") && inClusterMode.stderr().contains(": FINISHED"), inClusterMode::toString);

      // One worker killed while its executor runs tasks: Spark runs them again on the other.
      Sluice.Running autoCdc = submit.start(onCluster.get("auto-cdc"), "run");
      awaitTrue(Duration.ofMinutes(3), () -> runsTasks(cluster.resolve("worker-2")), () -> "worker 2 ran tasks");
      assertTrue(hasExecutor(cluster.resolve("worker-1")), "worker 1 ran an executor of the update");
      new ProcessBuilder("kill", "-9", Files.readString(cluster.resolve("worker-2.pid")).trim()).start().waitFor();
      CommandResult afterWorkerLoss = autoCdc.await(Duration.ofMinutes(5));
      assertEquals(0, afterWorkerLoss.exit(), afterWorkerLoss::toString);
      assertTrue(afterWorkerLoss.stdout().contains("COMPLETED"), afterWorkerLoss::toString);

      assertExampleTables(s3Port, metastorePort);
      for (String example : onCluster.keySet()) {
        String storage = "s3a://sluice/pipelines/" + example;
        assertTrue(bucket.exists(new org.apache.hadoop.fs.Path(storage + "/checkpoints")), example + "'s checkpoints are in the bucket");
        assertTrue(bucket.exists(new org.apache.hadoop.fs.Path(storage + "/system/event_log/_delta_log/00000000000000000000.json")),
            example + "'s event log is in the bucket");
        assertTrue(bucket.exists(new org.apache.hadoop.fs.Path("s3a://sluice/warehouse/" + database(example) + ".db")),
            example + "'s tables are in the bucket");
        assertFalse(Files.exists(onCluster.get(example).resolve(".sluice/checkpoints")), "nothing but the lock is local");
      }
    } finally {
      script(Duration.ofMinutes(1), "stop", "--dir", cluster.toString());
    }
  }

  /** A copy of the example whose storage is in the cluster's bucket and whose tables are in a database of their own. */
  private Path onCluster(String example) throws IOException {
    Path folder = dir.resolve("on-cluster").resolve(example);
    PipelineFolder.copyOf(Sluice.REPO.resolve("examples").resolve(example), folder);
    Path spec = folder.resolve("spark-pipeline.yml");
    Files.writeString(spec, Files.readString(spec).replace("storage: .sluice",
        "storage: s3a://sluice/pipelines/" + example + "\ndatabase: " + database(example)));
    return folder;
  }

  private static String database(String example) {
    return example.replace('-', '_');
  }

  private void badAddressesFailAtOnceAndWriteNothing(Path pipeline) throws IOException {
    int closed = freePort(1);
    assertTrue(submit.failsCleanly(pipeline, "--conf", "spark.master=spark://127.0.0.1:" + closed, "run")
        .stderr().contains("CLUSTER_UNREACHABLE"));
    assertTrue(submit.failsCleanly(pipeline, "--conf", "spark.hadoop.hive.metastore.uris=thrift://127.0.0.1:" + closed, "run")
        .stderr().contains("METASTORE_UNREACHABLE"));
    String wrongKey = submit.failsCleanly(pipeline, "--conf", "spark.hadoop.fs.s3a.secret.key=not-the-key", "run").stderr();
    assertTrue(wrongKey.contains("STORAGE_UNREACHABLE") && wrongKey.contains("access denied"), wrongKey);
    Path spec = pipeline.resolve("spark-pipeline.yml");
    String text = Files.readString(spec);
    Files.writeString(spec, text.replace("s3a://sluice/", "s3a://no-such-bucket/"));
    String noBucket = submit.failsCleanly(pipeline, "run").stderr();
    assertTrue(noBucket.contains("STORAGE_UNREACHABLE") && noBucket.contains("'no-such-bucket' does not exist"), noBucket);
    Files.writeString(spec, text);
    assertFalse(bucket.exists(new org.apache.hadoop.fs.Path("s3a://sluice/pipelines")), "nothing was written to the bucket");
  }

  /**
   * Every table of every example holds the rows a complete run leaves ({@link ExampleTables},
   * which the embedded runs are held to as well). Read by one more process that shares the
   * catalog: an embedded query given the metastore's address and the bucket's settings (on one
   * machine it runs the small reads in a fraction of the time a driver of the cluster takes).
   */
  private void assertExampleTables(int s3Port, int metastorePort) throws IOException {
    Path reader = dir.resolve("reader");
    PipelineFolder.copyOf(Sluice.REPO.resolve("examples/quickstart"), reader);
    Path spec = reader.resolve("spark-pipeline.yml");
    Files.writeString(spec, Files.readString(spec) + "configuration:\n"
        + "  spark.hadoop.hive.metastore.uris: thrift://127.0.0.1:" + metastorePort + "\n"
        + "  spark.hadoop.fs.s3a.endpoint: http://127.0.0.1:" + s3Port + "\n"
        + "  spark.hadoop.fs.s3a.endpoint.region: us-east-1\n"
        + "  spark.hadoop.fs.s3a.path.style.access: 'true'\n"
        + "  spark.hadoop.fs.s3a.connection.ssl.enabled: 'false'\n"
        + "  spark.hadoop.fs.s3a.access.key: sluice\n"
        + "  spark.hadoop.fs.s3a.secret.key: sluice-secret-key\n");
    Map<String, String> queries = new LinkedHashMap<>();
    for (String example : EXAMPLES) {
      ExampleTables.queries(ExampleTables.of(Sluice.REPO, example), database(example))
          .forEach((table, query) -> queries.put(example + "/" + table, query));
    }
    Map<String, List<JsonNode>> queried = Sluice.PROCESS.queryAll(reader, queries);
    for (String example : EXAMPLES) {
      Map<String, List<JsonNode>> tables = new LinkedHashMap<>();
      queried.forEach((name, rows) -> {
        if (name.startsWith(example + "/")) {
          tables.put(name.substring(example.length() + 1), rows);
        }
      });
      ExampleTables.assertHolds(ExampleTables.of(Sluice.REPO, example), tables, example + " on the cluster");
    }
  }

  /** The cluster's bucket, read from the test as any S3 client would. */
  private static FileSystem bucket(int port) throws IOException {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:" + port);
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.connection.ssl.enabled", "false");
    conf.set("fs.s3a.access.key", "sluice");
    conf.set("fs.s3a.secret.key", "sluice-secret-key");
    return FileSystem.newInstance(URI.create("s3a://sluice/"), conf);
  }

  private static boolean hasExecutor(Path workerDir) {
    return executorLogs(workerDir).findAny().isPresent();
  }

  private static boolean runsTasks(Path workerDir) {
    return executorLogs(workerDir).anyMatch(log -> {
      try {
        return Files.readString(log).contains("Running task");
      } catch (IOException e) {
        return false;
      }
    });
  }

  private static Stream<Path> executorLogs(Path workerDir) {
    try (Stream<Path> files = Files.walk(workerDir)) {
      return files.filter(f -> f.getFileName().toString().equals("stderr") && f.toString().contains("/app-")).toList().stream();
    } catch (IOException | UncheckedIOException e) {
      return Stream.empty();
    }
  }

  private static void awaitTrue(Duration timeout, BooleanSupplier condition, java.util.function.Supplier<String> what)
      throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting until " + what.get());
      }
      Thread.sleep(200);
    }
  }

  /** A free port, and the {@code following - 1} ports after it free too (the master's web UI takes the next). */
  private static int freePort(int following) throws IOException {
    for (int i = 0; i < 20; i++) {
      try (ServerSocket socket = new ServerSocket(0)) {
        int port = socket.getLocalPort();
        if (following == 1) {
          return port;
        }
        try (ServerSocket next = new ServerSocket(port + 1)) {
          return port;
        } catch (IOException taken) {
          // try another
        }
      }
    }
    throw new IOException("no free ports");
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

  /** {@code sluice} commands as {@code sluice-local-cluster submit}: SparkSubmit of the -spark.jar on the cluster. */
  private final class LocalCluster extends SluiceCommands {
    /** Submits {@code sluice ARGS} in the pipeline's folder without waiting: the process is the driver. */
    Sluice.Running start(Path pipeline, String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "submit", "--dir", cluster.toString()));
      command.addAll(Arrays.asList(args));
      Path out = Files.createTempFile(dir, "submit", ".out");
      Path err = Files.createTempFile(dir, "submit", ".err");
      Process process = new ProcessBuilder(command).directory(pipeline.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      return new Sluice.Running(process, Arrays.asList(args), out, err);
    }

    @Override
    public CommandResult run(Path pipeline, String... args) {
      try {
        return start(pipeline, args).await(Duration.ofMinutes(5));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static String output(Sluice.Running running) {
    try {
      return Files.readString(running.stdout, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
