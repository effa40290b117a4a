package io.sluice.bench;

import static io.sluice.bench.BenchSupport.count;
import static io.sluice.bench.BenchSupport.expect;

import io.sluice.spec.PipelineSpec;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.StopSignal;
import io.sluice.update.UpdateOptions;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Times how long a file that lands takes to reach every table of a continuous update
 * (SEMANTICS §10.1): a streaming table appends the landed JSON files, a materialized view
 * counts them per city, an AUTO CDC flow (SCD type 1) keeps each key's latest row; every
 * table's trigger interval is 1 second. After a first landing of N rows, ten files of 50
 * updates each land one at a time; for each, the time from the file's arrival to the commit
 * that holds it, per table: the commit file's time in the table's Delta log, so polling adds
 * nothing to it.
 */
public final class ContinuousBenchmark {
  private static final String DATABASE = "bench_continuous";
  private static final int LANDINGS = 10;
  private static final int LANDING_ROWS = 50;
  private static final String[] TABLES = {"landed", "per_city", "latest"};

  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;

  public ContinuousBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
  }

  /** Lands {@code keys} rows, then ten files of 50 updates, and prints each table's latency. */
  public void run(long keys) {
    Path landing = root.resolve("landing");
    PipelineSpec spec = BenchSupport.pipeline(spark, root, "continuous", DATABASE, """
        CREATE STREAMING TABLE landed TBLPROPERTIES ('pipelines.trigger.interval' = '1 second')
        AS SELECT * FROM STREAM read_files('%s', format => 'json',
          schema => 'id BIGINT, name STRING, city STRING, op STRING, seq BIGINT');
        CREATE MATERIALIZED VIEW per_city TBLPROPERTIES ('pipelines.trigger.interval' = '1 second')
        AS SELECT city, count(*) AS events FROM landed GROUP BY city;
        CREATE STREAMING TABLE latest TBLPROPERTIES ('pipelines.trigger.interval' = '1 second');
        CREATE FLOW latest_flow AS AUTO CDC INTO latest FROM STREAM(landed) KEYS (id)
          APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
        """.formatted(landing));
    land(landing, 0, LongStream.range(0, keys).mapToObj(id -> event(id, "first", 0)));
    StopSignal stop = new StopSignal();
    long started = System.currentTimeMillis();
    CompletableFuture<UpdateResult> running = CompletableFuture.supplyAsync(
        () -> PipelineUpdate.run(spark, spec, UpdateOptions.DEFAULT.continuously(), stop, List.of()));
    List<Path> logs = new ArrayList<>();
    for (String table : TABLES) {
      logs.add(deltaLog(running, table));
    }
    while (!holds(() -> count(spark, DATABASE + ".latest") == keys
        && spark.sql("SELECT sum(events) FROM " + DATABASE + ".per_city").first().getLong(0) == keys)) {
      pauseWhileRunning(running);
    }
    out.printf(Locale.ROOT, "first landing of %d rows in all three tables within %.1f s of the update's start%n", keys,
        (System.currentTimeMillis() - started) / 1000.0);
    long[][] latencies = new long[TABLES.length][LANDINGS];
    for (int i = 1; i <= LANDINGS; i++) {
      pause(1000 + 137L * i % 1000);
      int landingNumber = i;
      long landed = land(landing, i, LongStream.range(0, LANDING_ROWS)
          .mapToObj(n -> event(n * Math.max(1, keys / LANDING_ROWS), "landing-" + landingNumber, landingNumber)));
      long[] commits = awaitCommitsAfter(running, logs, landed);
      for (int t = 0; t < TABLES.length; t++) {
        latencies[t][i - 1] = commits[t] - landed;
      }
    }
    stop.request("the benchmark");
    UpdateResult result = join(running);
    for (int t = 0; t < TABLES.length; t++) {
      long[] sorted = latencies[t].clone();
      Arrays.sort(sorted);
      out.printf(Locale.ROOT, "%-9s a landing committed after %.1f s (median of %d; min %.1f, max %.1f)%n", TABLES[t],
          (sorted[LANDINGS / 2 - 1] + sorted[LANDINGS / 2]) / 2000.0, LANDINGS, sorted[0] / 1000.0,
          sorted[LANDINGS - 1] / 1000.0);
    }
    out.printf(Locale.ROOT, "the update ran %d rounds (%s)%n", result.rounds(), result.state());
    expect(out, "latest: keys updated by the last landing", count(spark, DATABASE + ".latest WHERE name = 'landing-"
        + LANDINGS + "'"), LANDING_ROWS);
    expect(out, "per_city: events counted", spark.sql("SELECT sum(events) FROM " + DATABASE + ".per_city").first()
        .getLong(0), keys + (long) LANDINGS * LANDING_ROWS);
  }

  private static String event(long id, String name, long seq) {
    return String.format(Locale.ROOT, "{\"id\": %d, \"name\": \"%s\", \"city\": \"city-%d\", \"op\": \"UPSERT\", \"seq\": %d}",
        id, name, (id + seq) % 8, seq);
  }

  /** Writes the rows beside the landing folder and moves them in at once; returns when they landed. */
  private static long land(Path landing, int number, Stream<String> rows) {
    try {
      Files.createDirectories(landing);
      Path written = landing.resolveSibling("landing-" + number + ".json.tmp");
      Files.writeString(written, rows.collect(Collectors.joining("\n", "", "\n")));
      Files.move(written, landing.resolve(String.format(Locale.ROOT, "%03d.json", number)),
          StandardCopyOption.ATOMIC_MOVE);
      return System.currentTimeMillis();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table's Delta log folder, once the update created the table. */
  private Path deltaLog(CompletableFuture<UpdateResult> running, String table) {
    while (true) {
      try {
        String location = spark.sql("DESCRIBE DETAIL " + DATABASE + "." + table).first().getAs("location");
        return Path.of(URI.create(location)).resolve("_delta_log");
      } catch (Exception notYet) {
        pauseWhileRunning(running);
      }
    }
  }

  /** For each log, the time of its first commit file written at or after {@code since}. */
  private static long[] awaitCommitsAfter(CompletableFuture<UpdateResult> running, List<Path> logs, long since) {
    long[] found = new long[logs.size()];
    while (Arrays.stream(found).anyMatch(t -> t == 0)) {
      for (int i = 0; i < logs.size(); i++) {
        if (found[i] == 0) {
          found[i] = firstCommitAfter(logs.get(i), since);
        }
      }
      pauseWhileRunning(running);
    }
    return found;
  }

  private static long firstCommitAfter(Path log, long since) {
    try (Stream<Path> files = Files.list(log)) {
      return files.filter(f -> f.getFileName().toString().matches("\\d+\\.json"))
          .mapToLong(ContinuousBenchmark::modified).filter(t -> t >= since).min().orElse(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the condition holds; not yet if what it reads does not exist yet. */
  private static boolean holds(BooleanSupplier condition) {
    try {
      return condition.getAsBoolean();
    } catch (Exception notYet) {
      return false;
    }
  }

  private static long modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void pauseWhileRunning(CompletableFuture<UpdateResult> running) {
    if (running.isDone()) {
      throw new IllegalStateException("the continuous update ended: " + join(running).flows());
    }
    pause(20);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static UpdateResult join(CompletableFuture<UpdateResult> running) {
    try {
      return running.get();
    } catch (InterruptedException | ExecutionException e) {
      throw new IllegalStateException("the continuous update failed", e);
    }
  }
}
