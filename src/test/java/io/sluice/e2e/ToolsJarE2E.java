package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks and the sample data ship in the tools jar, not in the production jars (the
 * library and the cluster jar), which run without them; the launcher has both.
 */
class ToolsJarE2E {
  private static final Path TARGET = Sluice.REPO.resolve("target");
  private static final List<String> TOOLS = List.of("io/sluice/bench/", "io/sluice/samples/",
      "io/sluice/cli/BenchCommand", "io/sluice/cli/SamplesCommand");

  @TempDir Path tmp;

  @Test
  void productionJarsHoldNoToolAndRunWithoutThem() throws Exception {
    for (String jar : List.of("sluice-0.1.0-SNAPSHOT.jar", "sluice-0.1.0-SNAPSHOT-spark.jar")) {
      assertEquals(List.of(), toolEntries(TARGET.resolve(jar)), jar);
    }
    assertEquals(TOOLS.size(), toolEntries(TARGET.resolve("sluice-0.1.0-SNAPSHOT-tools.jar")).stream()
        .map(e -> TOOLS.stream().filter(e::startsWith).findFirst().orElseThrow()).distinct().count());

    String classPath = TARGET.resolve("sluice-0.1.0-SNAPSHOT.jar") + ":"
        + Files.readString(TARGET.resolve("runtime-classpath.txt")).trim();
    Process process = new ProcessBuilder("java", "-cp", classPath, "io.sluice.cli.SluiceCli", "--help")
        .redirectErrorStream(true).start();
    String help = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES));
    assertEquals(0, process.exitValue(), help);
    assertTrue(help.contains("run ") && !help.contains("bench") && !help.contains("samples"), help);
  }

  @Test
  void theLauncherHasTheToolCommands() throws IOException {
    CommandResult help = Sluice.PROCESS.ok(tmp, "--help");
    assertTrue(help.stdout().contains("bench ") && help.stdout().contains("samples "), help::toString);

    Path dir = tmp.resolve("bookings");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("spark-pipeline.yml"), "name: bookings\nstorage: .sluice\n");
    CommandResult samples = Sluice.PROCESS.ok(dir, "samples", "--scale", "20", "--commits", "1");
    assertTrue(samples.stdout().contains("created wanderbricks.booking_updates (")
        && samples.stdout().contains("for 20 bookings"), samples::toString);
    assertFalse(samples.hasStackTrace(), samples::toString);
  }

  private static List<String> toolEntries(Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream().map(ZipEntry::getName).filter(n -> TOOLS.stream().anyMatch(n::startsWith)).toList();
    }
  }
}
