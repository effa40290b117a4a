package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.SluiceCommands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs {@code bin/sluice} as a separate OS process, the way a user does, in the pipeline
 * folder as its working directory.
 */
final class Sluice extends SluiceCommands {
  static final Path REPO = Path.of(System.getProperty("user.dir")).toAbsolutePath();
  static final Path LAUNCHER = REPO.resolve("bin/sluice");
  static final Duration TIMEOUT = Duration.ofMinutes(5);
  /** The commands as processes. */
  static final Sluice PROCESS = new Sluice();
  private static boolean built;

  private Sluice() {}

  /** A started process whose output goes to files, for runs the test watches or kills. */
  static final class Running {
    final Process process;
    final List<String> command;
    final Path stdout;
    final Path stderr;
    final long started = System.nanoTime();

    Running(Process process, List<String> command, Path stdout, Path stderr) {
      this.process = process;
      this.command = command;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    CommandResult await(Duration timeout) {
      try {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor();
          fail("sluice " + String.join(" ", command) + " did not finish within " + timeout + "\n" + finish(-1));
        }
        return finish(process.exitValue());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    CommandResult finish(int exit) {
      try {
        CommandResult result = new CommandResult(command, exit, Files.readString(stdout, StandardCharsets.UTF_8),
            Files.readString(stderr, StandardCharsets.UTF_8), Duration.ofNanos(System.nanoTime() - started));
        Files.deleteIfExists(stdout);
        Files.deleteIfExists(stderr);
        // The launcher sizes the JIT's code cache; a full one stops the JIT for the rest of the run.
        assertFalse(result.stderr().contains("CodeCache is full"), () -> "the code cache filled: " + result);
        System.out.printf("[e2e] sluice %s -> exit %d in %.1f s%n", abbreviate(String.join(" ", command)), exit,
            result.took().toMillis() / 1000.0);
        return result;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Starts {@code bin/sluice ARGS} in {@code dir} without waiting. */
  static Running start(Path dir, String... args) {
    ensureBuilt();
    List<String> command = new ArrayList<>();
    command.add(LAUNCHER.toString());
    command.addAll(Arrays.asList(args));
    try {
      Path out = Files.createTempFile("sluice-e2e-", ".out");
      Path err = Files.createTempFile("sluice-e2e-", ".err");
      ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
      builder.environment().remove("SLUICE_JAVA_OPTS");
      Process process = builder.start();
      process.getOutputStream().close();
      return new Running(process, Arrays.asList(args), out, err);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  @Override
  public CommandResult run(Path dir, String... args) {
    return start(dir, args).await(TIMEOUT);
  }

  /** The tables that exist on disk in the pipeline's warehouse (folders with a Delta log). */
  static List<String> tablesOnDisk(Path pipeline) {
    Path warehouse = pipeline.resolve(".sluice/warehouse");
    if (!Files.isDirectory(warehouse)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(warehouse)) {
      return paths.filter(p -> p.getFileName().toString().equals("_delta_log"))
          .map(p -> warehouse.relativize(p.getParent()).toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Builds once before the first process, so no test times (or kills) a Maven build. */
  private static synchronized void ensureBuilt() {
    if (built) {
      return;
    }
    long start = System.nanoTime();
    try {
      Process process = new ProcessBuilder(LAUNCHER.toString(), "--version").redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        fail("bin/sluice --version failed: " + output);
      }
      built = true;
      System.out.printf("[e2e] bin/sluice ready (build and start-up archive if needed) in %.1f s%n",
          (System.nanoTime() - start) / 1e9);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String abbreviate(String text) {
    String oneLine = text.replaceAll("\\s+", " ");
    return oneLine.length() > 110 ? oneLine.substring(0, 107) + "..." : oneLine;
  }
}
