package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs {@code bin/sluice} as a separate OS process, the way a user does, and reads tables
 * back through {@code sluice query --format json}.
 */
final class Sluice {
  static final Path REPO = Path.of(System.getProperty("user.dir")).toAbsolutePath();
  static final Path LAUNCHER = REPO.resolve("bin/sluice");
  static final Duration TIMEOUT = Duration.ofMinutes(5);
  static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w.$/<>]+\\(");
  private static boolean built;

  private Sluice() {}

  /** What one finished process left behind. */
  record Result(List<String> command, int exit, String stdout, String stderr, Duration took) {
    String output() {
      return stdout + stderr;
    }

    /** The non-blank lines of stderr. */
    List<String> errorLines() {
      return stderr.lines().filter(l -> !l.isBlank()).toList();
    }

    boolean hasStackTrace() {
      return STACK_FRAME.matcher(stderr).find() || stderr.contains("Exception:") || stderr.contains("\tat ");
    }

    @Override
    public String toString() {
      return "sluice " + String.join(" ", command) + " -> exit " + exit + " in " + took.toSeconds() + " s"
          + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
    }
  }

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

    Result await(Duration timeout) {
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

    Result finish(int exit) {
      try {
        Result result = new Result(command, exit, Files.readString(stdout, StandardCharsets.UTF_8),
            Files.readString(stderr, StandardCharsets.UTF_8), Duration.ofNanos(System.nanoTime() - started));
        Files.deleteIfExists(stdout);
        Files.deleteIfExists(stderr);
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

  /** Runs {@code bin/sluice ARGS} in {@code dir} and waits for it. */
  static Result run(Path dir, String... args) {
    return start(dir, args).await(TIMEOUT);
  }

  /** Runs and insists on exit 0. */
  static Result ok(Path dir, String... args) {
    Result result = run(dir, args);
    assertEquals(0, result.exit(), () -> "expected success: " + result);
    return result;
  }

  /** Asserts a failed command: exit != 0, one clear line on stderr, no stack trace. */
  static Result failsCleanly(Path dir, String... args) {
    Result result = run(dir, args);
    assertTrue(result.exit() != 0, () -> "expected a failure: " + result);
    assertTrue(!result.hasStackTrace(), () -> "expected no stack trace without --verbose: " + result);
    assertEquals(1, result.errorLines().size(), () -> "expected one clear line on stderr: " + result);
    return result;
  }

  /** {@code sluice query --format json SQL}: the rows, one JSON object each. */
  static List<JsonNode> query(Path dir, String sql) {
    Result result = ok(dir, "query", "--format", "json", sql);
    return parseLines(result.stdout());
  }

  static List<JsonNode> parseLines(String jsonLines) {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : jsonLines.lines().filter(l -> !l.isBlank()).toList()) {
      try {
        rows.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new AssertionError("not a JSON line: " + line, e);
      }
    }
    return rows;
  }

  /**
   * Several queries in one process (a process costs 10-20 s): each named SELECT becomes
   * {@code SELECT name, to_json(struct(*)) FROM (sql)}, all joined with UNION ALL. Returns
   * the rows of each query by name (every name present, maybe with no rows).
   */
  static Map<String, List<JsonNode>> queryAll(Path dir, Map<String, String> queries) {
    String sql = queries.entrySet().stream()
        .map(q -> "SELECT '" + q.getKey() + "' AS q, to_json(struct(*)) AS j FROM (" + q.getValue() + ")")
        .collect(Collectors.joining(" UNION ALL "));
    Map<String, List<JsonNode>> result = new LinkedHashMap<>();
    queries.keySet().forEach(name -> result.put(name, new ArrayList<>()));
    for (JsonNode row : query(dir, sql)) {
      try {
        result.get(row.get("q").asText()).add(JSON.readTree(row.get("j").asText()));
      } catch (IOException e) {
        throw new AssertionError("bad JSON in " + row, e);
      }
    }
    return result;
  }

  /** {@code SELECT * FROM t} for each table, in one process. */
  static Map<String, List<JsonNode>> tables(Path dir, String... tables) {
    Map<String, String> queries = new LinkedHashMap<>();
    for (String table : tables) {
      queries.put(table, "SELECT * FROM " + table);
    }
    return queryAll(dir, queries);
  }

  /**
   * Rows as sorted strings of the given columns joined by '|', for exact multiset
   * comparisons (duplicates stay visible). Numbers are normalised (120.50 -> 120.5), NULL
   * is "null".
   */
  static List<String> rows(List<JsonNode> rows, String... columns) {
    return rows.stream().map(row -> Stream.of(columns).map(c -> text(row.get(c))).collect(Collectors.joining("|")))
        .sorted().toList();
  }

  /** The column names of a row of {@link #queryAll}'s output, in order. */
  static List<String> fieldNames(JsonNode row) {
    List<String> names = new ArrayList<>();
    row.fieldNames().forEachRemaining(names::add);
    return names;
  }

  static List<String> sorted(String... rows) {
    return Stream.of(rows).sorted().toList();
  }

  static String text(JsonNode node) {
    if (node == null || node.isNull()) {
      return "null";
    }
    if (node.isNumber()) {
      return node.decimalValue().stripTrailingZeros().toPlainString();
    }
    return node.asText();
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
