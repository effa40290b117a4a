package io.sluice.update;

import io.sluice.common.Identifiers;
import io.sluice.eventlog.EventLevel;
import io.sluice.eventlog.EventLog;
import io.sluice.eventlog.EventType;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.DeltaTarget;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ResolvedGraph;
import io.sluice.spec.Storage;
import io.sluice.storage.StoragePath;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/**
 * Compaction and cleanup of what a pipeline keeps (SEMANTICS §11.1): {@code OPTIMIZE} (Z-ordered
 * by {@code pipelines.autoOptimize.zOrderCols}; a table with {@code CLUSTER BY} is clustered by
 * it), then {@code VACUUM} within the table's own retention, for each managed table, its hidden
 * AUTO CDC or view state, and the event log. Neither changes a row nor removes a file that a version
 * within the retention reads, so streams and time travel go on. Each table's maintenance is an
 * event with its files and bytes before and after.
 */
public final class TableMaintenance {
  /** How old a table's last maintenance is when an update maintains it again. */
  static final Duration INTERVAL = Duration.ofDays(1);
  private static final String LISTING_PARALLELISM = "spark.sql.sources.parallelPartitionDiscovery.parallelism";
  private final SparkSession spark;
  private final Checkpoints checkpoints;
  private final Storage storage;
  private final StoragePath marks;
  private final EventLog events;

  public TableMaintenance(SparkSession spark, Storage storage, EventLog events) {
    this.spark = spark;
    StoragePath root = StoragePath.root(spark, storage);
    this.checkpoints = new Checkpoints(root);
    this.storage = storage;
    this.marks = root.resolve("system").resolve("maintained");
    this.events = events;
  }

  /** Maintains {@code tables} now, and the event log with them. */
  public void maintain(List<DatasetDefinition> tables) {
    for (DatasetDefinition table : tables) {
      maintainTable(table);
    }
    maintainPath("event log", EventLog.location(spark, storage));
  }

  /**
   * After an update: the tables whose last maintenance is older than {@link #INTERVAL} and
   * that do not turn it off. A table never maintained counts from its first update, so new
   * pipelines do not pay for it at once.
   */
  void maintainDue(ResolvedGraph graph) {
    List<DatasetDefinition> due = new ArrayList<>();
    for (DatasetDefinition table : graph.graph().datasets().values()) {
      if (table.type().isTable() && !"false".equalsIgnoreCase(table.properties().getOrDefault(DatasetDefinition.AUTO_OPTIMIZE, "true").trim())
          && isDue(table.name())) {
        due.add(table);
      }
    }
    if (!due.isEmpty()) {
      maintain(due);
    }
  }

  private boolean isDue(DatasetName table) {
    try {
      Optional<String> last = marks.resolve(table.key()).readIfExists();
      if (last.isEmpty()) {
        mark(table);
        return false;
      }
      return Instant.parse(last.get().trim()).plus(INTERVAL).isBefore(Instant.now());
    } catch (RuntimeException e) {
      return true;
    }
  }

  private void mark(DatasetName table) {
    marks.resolve(table.key()).write(Instant.now().toString());
  }

  private void maintainTable(DatasetDefinition table) {
    DeltaTarget target = DeltaTarget.table(table.name());
    Optional<String> zOrder = Optional.ofNullable(table.properties().get(DatasetDefinition.Z_ORDER_COLUMNS)).map(String::trim).filter(s -> !s.isEmpty());
    String zOrderBy = zOrder.map(cols -> " ZORDER BY (" + List.of(cols.split(",")).stream().map(String::trim)
        .map(Identifiers::quote).collect(Collectors.joining(", ")) + ")").orElse("");
    run(table.name().name(), table.name().name(), target, table.name().quoted(), zOrderBy);
    maintainPath(table.name().name() + " (AUTO CDC state)", checkpoints.autoCdcState(table.name()));
    StoragePath viewState = checkpoints.viewState(table.name());
    if (viewState.isDirectory()) {
      viewState.list().forEach(state -> maintainPath(table.name().name() + " (view state " + state.name() + ")", state));
    }
    mark(table.name());
  }

  private void maintainPath(String label, StoragePath path) {
    if (path.isDeltaTable()) {
      run(label, null, DeltaTarget.location(path.toString()), "delta." + Identifiers.quote(path.toString()), "");
    }
  }

  private void run(String label, String dataset, DeltaTarget target, String sqlName, String zOrderBy) {
    long[] before = target.filesAndBytes(spark);
    Instant start = Instant.now();
    spark.sql("OPTIMIZE " + sqlName + zOrderBy).collectAsList();
    vacuum(sqlName);
    long[] after = target.filesAndBytes(spark);
    double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("files_before", before[0]);
    details.put("files_after", after[0]);
    details.put("bytes_before", before[1]);
    details.put("bytes_after", after[1]);
    details.put("seconds", seconds);
    details.put("z_order", zOrderBy.isEmpty() ? null : zOrderBy.trim());
    EventLog.Entry event = events.event(EventLevel.INFO, EventType.MAINTENANCE, String.format(Locale.ROOT,
        "%s maintained: files %d -> %d, %s -> %s in %.1f s", label, before[0], after[0], bytes(before[1]), bytes(after[1]),
        seconds)).details(details);
    if (dataset != null) {
      event.dataset(dataset);
    }
    event.record();
  }

  /**
   * VACUUM within the table's retention. Delta lists the table's files in as many tasks as
   * {@code spark.sql.sources.parallelPartitionDiscovery.parallelism} (10,000 by default): half a
   * minute on two cores for a table of a few files, hence a parallelism of a few tasks per core.
   * It also prints a line of its own to standard output, which is not Sluice's to show.
   */
  private void vacuum(String sqlName) {
    RuntimeConfig conf = spark.conf();
    Option<String> before = conf.getOption(LISTING_PARALLELISM);
    conf.set(LISTING_PARALLELISM, String.valueOf(Math.max(2, 4 * spark.sparkContext().defaultParallelism())));
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      spark.sql("VACUUM " + sqlName).collectAsList();
    } finally {
      System.setOut(stdout);
      if (before.isDefined()) {
        conf.set(LISTING_PARALLELISM, before.get());
      } else {
        conf.unset(LISTING_PARALLELISM);
      }
    }
  }

  private static String bytes(long bytes) {
    return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0)
        : String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
  }
}
