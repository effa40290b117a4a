package io.sluice.eventlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.common.Ahead;
import io.sluice.common.Identifiers;
import io.sluice.delta.NewTableSession;
import io.sluice.spec.Storage;
import io.sluice.storage.StoragePath;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.actions.Action$;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * The event log of a pipeline: a Delta table under {@code storage/system/event_log}.
 * Events of an update are buffered and appended in one commit per {@link #flush()}, so
 * logging does not add a Delta commit per event to the update's time; until then each is in
 * the {@link EventSpool} on disk, so a killed update loses none.
 */
public final class EventLog {
  public static final String VIEW_NAME = "event_log";
  public static final StructType SCHEMA = StructType.fromDDL(
      "id STRING, sequence BIGINT, "
          + "origin STRUCT<pipeline_name: STRING, update_id: STRING, flow_name: STRING, dataset_name: STRING, batch_id: BIGINT>, "
          + "timestamp TIMESTAMP, level STRING, event_type STRING, message STRING, details STRING, error STRING");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SparkSession spark;
  private final StoragePath location;
  private final String pipelineName;
  private final String updateId;
  private final List<PipelineEvent> buffer = new ArrayList<>();
  private final List<EventListener> listeners = new CopyOnWriteArrayList<>();
  private final EventSpool spool;
  /** Whether the log's table is known to exist. */
  private boolean created;
  private long sequence;

  /** The log of a new update; what killed updates left unlogged is logged first (the caller holds the pipeline's lock). */
  public EventLog(SparkSession spark, Storage storage, String pipelineName, String updateId) {
    this(spark, storage, pipelineName, updateId, true);
  }

  private EventLog(SparkSession spark, Storage storage, String pipelineName, String updateId, boolean recover) {
    this.spark = spark;
    this.location = location(spark, storage);
    this.pipelineName = pipelineName;
    this.updateId = updateId;
    this.spool = EventSpool.of(storage.localFolder(), updateId);
    if (recover) {
      EventSpool.recover(spark, storage.localFolder(), location);
    }
    // Its snapshot, and the encoders of Delta's log that its first commit builds by Scala
    // reflection, are made while the update starts rather than at its first flush.
    Ahead.start("event-log", () -> {
      Action$.MODULE$.logSchema();
      DeltaLog.forTable(spark, location.toString()).update(false, Option.empty(), Option.empty());
    });
  }

  /**
   * The log of work done beside a running update, e.g. {@code sluice maintain}: the running
   * update's spool is left alone, since it is not a killed update's.
   */
  public static EventLog besideRunningUpdate(SparkSession spark, Storage storage, String pipelineName, String workId) {
    return new EventLog(spark, storage, pipelineName, workId, false);
  }

  public static StoragePath location(SparkSession spark, Storage storage) {
    return StoragePath.root(spark, storage).resolve("system").resolve("event_log");
  }

  /**
   * The event log as a DataFrame, if any update has written it, with the events of killed
   * updates logged first (the caller holds the pipeline's lock).
   */
  public static Optional<Dataset<Row>> read(SparkSession spark, Storage storage) {
    StoragePath path = location(spark, storage);
    EventSpool.recover(spark, storage.localFolder(), path);
    if (!path.isDeltaTable()) {
      return Optional.empty();
    }
    return Optional.of(spark.read().format("delta").load(path.toString()));
  }

  /**
   * The event log while an update runs, read only: the committed events and those the running
   * update has spooled but not committed yet (the spool is the running update's, so it is read,
   * never moved).
   */
  public static Optional<Dataset<Row>> readWhileRunning(SparkSession spark, Storage storage) {
    StoragePath path = location(spark, storage);
    Optional<Dataset<Row>> spooled = EventSpool.read(spark, storage.localFolder());
    if (!path.isDeltaTable()) {
      return spooled;
    }
    Dataset<Row> committed = spark.read().format("delta").load(path.toString());
    return Optional.of(spooled.map(s -> committed.unionByName(s).dropDuplicates("id")).orElse(committed));
  }

  public String updateId() {
    return updateId;
  }

  public void addListener(EventListener listener) {
    listeners.add(listener);
  }

  /** Starts an event; {@link Entry#record()} stores it. */
  public Entry event(EventLevel level, EventType type, String message) {
    return new Entry(level, type, message);
  }

  /**
   * Flushes if the oldest buffered event waited longer than {@code age}: long updates keep
   * their log current without paying a commit for every short flow.
   */
  public synchronized void flushIfOlderThan(Duration age) {
    if (!buffer.isEmpty() && buffer.get(0).timestamp().plus(age).isBefore(Instant.now())) {
      flush();
    }
  }

  /** Appends the buffered events to the Delta table in one commit. */
  public synchronized void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    if (!created && !location.isDeltaTable()) {
      // Created empty first: a first commit that adds files costs Delta a job (NewTableSession).
      NewTableSession.of(spark).sql("CREATE TABLE IF NOT EXISTS delta." + Identifiers.quote(location.toString())
          + " (" + SCHEMA.toDDL() + ") USING delta");
    }
    created = true;
    append(spark, location, buffer.stream().map(this::toRow).toList());
    buffer.clear();
    spool.committed();
  }

  /** Appends {@code rows} to the log at {@code location} in one commit. */
  static void append(SparkSession spark, StoragePath location, List<Row> rows) {
    // One task, one file: rows given to Spark are split over the cores, a file each.
    spark.createDataFrame(rows, SCHEMA).coalesce(1).write().format("delta").mode("append").save(location.toString());
  }

  private synchronized void store(PipelineEvent event) {
    buffer.add(event);
    spool.append(toJson(event));
  }

  /** The event as a JSON line of the log's columns, as Spark's JSON reader reads them back. */
  private String toJson(PipelineEvent e) {
    ObjectNode line = JSON.createObjectNode();
    line.put("id", e.id()).put("sequence", e.sequence());
    ObjectNode origin = line.putObject("origin");
    origin.put("pipeline_name", pipelineName).put("update_id", e.updateId())
        .put("flow_name", e.flowName().orElse(null)).put("dataset_name", e.datasetName().orElse(null));
    e.batchId().ifPresentOrElse(b -> origin.put("batch_id", b), () -> origin.putNull("batch_id"));
    line.put("timestamp", e.timestamp().truncatedTo(ChronoUnit.MICROS).toString()).put("level", e.level().name()).put("event_type", e.type().label())
        .put("message", e.message()).put("details", json(e.details())).put("error", e.error().orElse(null));
    return line.toString();
  }

  private Row toRow(PipelineEvent e) {
    Row origin = RowFactory.create(pipelineName, e.updateId(), e.flowName().orElse(null),
        e.datasetName().orElse(null), e.batchId().orElse(null));
    return RowFactory.create(e.id(), e.sequence(), origin, Timestamp.from(e.timestamp()), e.level().name(),
        e.type().label(), e.message(), json(e.details()), e.error().orElse(null));
  }

  private static String json(Map<String, Object> details) {
    try {
      return JSON.writeValueAsString(details);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("event details are not JSON-serialisable: " + details, e);
    }
  }

  /** One event being put together. */
  public final class Entry {
    private final EventLevel level;
    private final EventType type;
    private final String message;
    private String flow;
    private String dataset;
    private Long batchId;
    private Map<String, Object> details = Map.of();
    private String error;

    private Entry(EventLevel level, EventType type, String message) {
      this.level = level;
      this.type = type;
      this.message = message;
    }

    public Entry flow(String name) {
      this.flow = name;
      return this;
    }

    public Entry dataset(String name) {
      this.dataset = name;
      return this;
    }

    public Entry batch(long id) {
      this.batchId = id;
      return this;
    }

    public Entry details(Map<String, Object> payload) {
      this.details = payload;
      return this;
    }

    public Entry error(String text) {
      this.error = text;
      return this;
    }

    public PipelineEvent record() {
      PipelineEvent event;
      synchronized (EventLog.this) {
        event = new PipelineEvent(UUID.randomUUID().toString(), sequence++, updateId, Optional.ofNullable(flow),
            Optional.ofNullable(dataset), Optional.ofNullable(batchId), Instant.now(), level, type, message,
            details, Optional.ofNullable(error));
        store(event);
      }
      listeners.forEach(l -> l.onEvent(event));
      return event;
    }
  }
}
