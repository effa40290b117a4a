package io.sluice.cli;

import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventListener;
import io.sluice.eventlog.EventType;
import io.sluice.eventlog.PipelineEvent;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.SparkContext;

/**
 * What {@code sluice run} prints: each flow's states and batches as they happen, a line now
 * and then for a flow that runs long (rows read and written so far), and a one-screen
 * summary per dataset at the end. Lines only, so a file or a pipe gets the same as a terminal,
 * as it happens; a continuous update adds a status line, redrawn every second on a terminal,
 * else printed every tick in which nothing else was.
 */
final class ConsoleReporter implements EventListener, AutoCloseable {
  private static final String CLEAR_TO_END = "\u001b[K";
  private static final String SUMMARY_FIGURES = " %-18s %-10s %8s %13s %8s %9s%n";

  private final PrintWriter out;
  private final SparkContext spark;
  private final RowCounter rows = new RowCounter();
  private final ScheduledExecutorService ticker;
  private final Duration tick;
  private final StatusLine status;
  private final Instant started = Instant.now();
  private final Map<String, RunningFlow> running = new LinkedHashMap<>();
  private long rowsWritten;
  private Instant lastWrite;
  private boolean printedSinceTick;
  private boolean statusShown;

  /** Whether, and how, a continuous update's status is shown. */
  enum StatusLine {
    /** A triggered update: none. */
    NONE,
    /** A line every tick in which nothing else was printed: for a file or a pipe. */
    LINES,
    /** One line at the bottom of a terminal, redrawn every second. */
    REDRAWN
  }

  /** A reporter that prints to {@code out}, and a progress line every {@code tick} while a flow runs. */
  ConsoleReporter(PrintWriter out, SparkContext spark, Duration tick, StatusLine status) {
    this.out = out;
    this.spark = spark;
    this.tick = tick;
    this.status = status;
    spark.addSparkListener(rows);
    ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "sluice-progress");
      thread.setDaemon(true);
      return thread;
    });
    ticker.scheduleAtFixedRate(this::progress, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    if (status == StatusLine.REDRAWN) {
      ticker.scheduleAtFixedRate(this::redrawStatus, 1, 1, TimeUnit.SECONDS);
    }
  }

  @Override
  public synchronized void onEvent(PipelineEvent event) {
    clearStatus();
    printedSinceTick = true;
    if (event.level() == EventLevel.METRICS && event.details().get("num_output_rows") instanceof Number written) {
      rowsWritten += written.longValue();
      lastWrite = event.timestamp();
    }
    if (event.type() == EventType.FLOW_PROGRESS) {
      String flow = event.flowName().orElse("");
      Object state = event.details().get("state");
      String what = state != null ? String.valueOf(state) : event.message();
      if ("RUNNING".equals(what)) {
        running.put(flow, new RunningFlow(flow, System.nanoTime(), rows.read(), rows.written()));
      } else if (state != null) {
        running.remove(flow);
      }
      if (!"QUEUED".equals(what)) {
        out.printf("  %-28s %s%n", flow, what);
      }
    } else if (event.type() == EventType.PLANNING_INFORMATION) {
      out.printf("  %-28s %s%n", event.flowName().orElse(""), event.message().substring(event.message().indexOf(": ") + 2));
    } else if (event.type() == EventType.UPDATE_PROGRESS) {
      out.println(event.message());
    }
    out.flush();
  }

  /**
   * Says what each flow running for longer than a tick has done so far (Spark's task counts
   * cannot tell flows apart, so with several at once the figures are theirs together), or
   * where a continuous update stands.
   */
  private synchronized void progress() {
    if (status == StatusLine.LINES && !printedSinceTick && running.isEmpty()) {
      out.println("  " + statusText());
      out.flush();
    }
    printedSinceTick = false;
    String together = running.size() > 1 ? " by the " + running.size() + " flows running" : "";
    for (RunningFlow flow : running.values()) {
      long nanos = System.nanoTime() - flow.startNanos();
      if (nanos >= tick.toNanos()) {
        out.printf(Locale.ROOT, "  %-28s RUNNING for %d s: %,d rows read, %,d written so far%s%n", flow.name(),
            TimeUnit.NANOSECONDS.toSeconds(nanos), rows.read() - flow.readBefore(), rows.written() - flow.writtenBefore(),
            together);
      }
    }
    out.flush();
  }

  private String statusText() {
    return String.format(Locale.ROOT, "running continuously for %s: %,d rows written%s", elapsed(Duration.between(started, Instant.now())),
        rowsWritten, lastWrite == null ? "" : ", last at " + LocalTime.ofInstant(lastWrite, ZoneId.systemDefault())
            .truncatedTo(ChronoUnit.SECONDS));
  }

  private synchronized void redrawStatus() {
    out.print("\r" + statusText() + "; Ctrl-C stops" + CLEAR_TO_END);
    out.flush();
    statusShown = true;
  }

  private void clearStatus() {
    if (statusShown) {
      out.print("\r" + CLEAR_TO_END);
      statusShown = false;
    }
  }

  private static String elapsed(Duration duration) {
    long seconds = duration.toSeconds();
    return seconds < 60 ? seconds + " s" : seconds < 3600 ? seconds / 60 + " min " + seconds % 60 + " s"
        : seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
  }

  synchronized void printSummary(String pipeline, UpdateResult result) {
    clearStatus();
    out.printf("%nPipeline '%s' update %s %s%s in %s%n", pipeline, result.updateId().substring(0, 8), result.state(),
        result.stoppedBy().map(why -> " (stopped by " + why + " after " + result.rounds() + " rounds)").orElse(""),
        seconds(result.duration()));
    int width = Math.max("dataset".length(), result.flows().stream().mapToInt(f -> name(f).length()).max().orElse(0));
    out.printf("%-" + width + "s" + SUMMARY_FIGURES, "dataset", "type", "state", "batches", "rows written", "dropped", "duration");
    for (FlowOutcome flow : result.flows()) {
      out.printf("%-" + width + "s" + SUMMARY_FIGURES, name(flow), flow.datasetType(), flow.state(), flow.batches(),
          flow.rowsWritten(), flow.rowsDropped(), seconds(flow.duration()));
      if (!flow.kindMetrics().isEmpty()) {
        out.println("    " + flow.kindMetrics().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .map(e -> e.getKey().replace('_', ' ') + " " + e.getValue()).collect(Collectors.joining(", ")));
      }
      if (flow.rowsRescued() > 0) {
        out.println("    rows with rescued data (input that did not parse, in _rescued_data): " + flow.rowsRescued());
      }
      String failed = flow.expectationFailures().entrySet().stream().filter(e -> e.getValue() > 0)
          .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
      if (!failed.isEmpty()) {
        out.println("    rows failing expectations: " + failed);
      }
    }
    result.warnings().forEach(w -> out.println("warning: " + w));
    out.flush();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    synchronized (this) {
      clearStatus();
      out.flush();
    }
    spark.removeSparkListener(rows);
  }

  private static String name(FlowOutcome flow) {
    return flow.flow().equals(flow.dataset()) ? flow.dataset() : flow.dataset() + " <- " + flow.flow();
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }

  private record RunningFlow(String name, long startNanos, long readBefore, long writtenBefore) {}
}
