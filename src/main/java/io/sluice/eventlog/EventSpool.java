package io.sluice.eventlog;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.get_json_object;
import static org.apache.spark.sql.functions.max;

import io.sluice.storage.StoragePath;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;

/**
 * A running update's events on disk, one JSON line each, written as each is recorded, until
 * they are in the Delta event log (SEMANTICS §7.4): the log commits events in batches, so
 * without this an update killed between commits would lose the events since the last one.
 * Whoever next reads the log, or runs an update, first moves what a killed update left here
 * into the log, with an event saying that the update ended without finishing.
 */
final class EventSpool {
  private final Path file;
  private OutputStream out;

  private EventSpool(Path file) {
    this.file = file;
  }

  static EventSpool of(Path localFolder, String updateId) {
    return new EventSpool(folder(localFolder).resolve(updateId + ".jsonl"));
  }

  private static Path folder(Path localFolder) {
    return localFolder.resolve("system").resolve("event_spool");
  }

  /** Writes one event, as a JSON line of the log's columns, through to the operating system. */
  synchronized void append(String jsonLine) {
    try {
      if (out == null) {
        Files.createDirectories(file.getParent());
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      out.write((jsonLine + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the event spool " + file, e);
    }
  }

  /** Forgets the events written so far: they are in the Delta log now. */
  synchronized void committed() {
    try {
      if (out != null) {
        out.close();
        out = null;
      }
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear the event spool " + file, e);
    }
  }

  /**
   * The event that says an update ended without finishing, after its last spooled event;
   * none if its events include how it ended (it was killed after its last event, before the
   * spool was cleared).
   */
  private static Optional<Row> interruption(Dataset<Row> events) {
    Row last = events.agg(max("sequence"), max("timestamp"), first("origin"),
        max(get_json_object(col("details"), "$.state").isin("COMPLETED", "FAILED", "CANCELED")
            .and(col("event_type").equalTo(EventType.UPDATE_PROGRESS.label())))).first();
    if (last.isNullAt(0) || (!last.isNullAt(3) && last.getBoolean(3))) {
      return Optional.empty();
    }
    Row origin = last.getStruct(2);
    String updateId = origin.getString(1);
    return Optional.of(RowFactory.create(UUID.randomUUID().toString(), last.getLong(0) + 1,
        RowFactory.create(origin.getString(0), updateId, null, null, null), (Timestamp) last.get(1),
        EventLevel.ERROR.name(), EventType.UPDATE_PROGRESS.label(),
        "update " + updateId + " ended without finishing: its process stopped (killed or crashed)",
        "{\"state\":\"FAILED\"}", "the process running the update stopped before the update ended"));
  }

  /**
   * The events spooled and not yet committed, if there are any, read now: the running update
   * deletes its spool once the events are in the log, so what is read later comes from the log.
   */
  static Optional<Dataset<Row>> read(SparkSession spark, Path localFolder) {
    List<String> lines = new ArrayList<>();
    for (Path file : files(folder(localFolder))) {
      try {
        lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
      } catch (NoSuchFileException committedMeanwhile) {
        // Its events were committed to the log before it was deleted.
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the event spool " + file, e);
      }
    }
    if (lines.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(spark.read().schema(EventLog.SCHEMA).json(spark.createDataset(lines, Encoders.STRING()))
        .where(col("id").isNotNull()));
  }

  private static List<Path> files(Path folder) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> listed = Files.list(folder)) {
      return listed.filter(p -> p.getFileName().toString().endsWith(".jsonl")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the event spool " + folder, e);
    }
  }

  /**
   * Appends to the Delta log at {@code log} the events that updates killed before committing
   * them left in the spool (those already in the log are not appended twice), then an event
   * per such update saying it ended without finishing. The caller holds the pipeline's lock.
   */
  static void recover(SparkSession spark, Path localFolder, StoragePath log) {
    for (Path spooled : files(folder(localFolder))) {
      // A line cut short by the kill does not parse: PERMISSIVE reads it as a row without an id.
      Dataset<Row> events = spark.read().schema(EventLog.SCHEMA).json(spooled.toString()).where(col("id").isNotNull());
      Dataset<Row> missing = log.isDeltaTable()
          ? events.join(spark.read().format("delta").load(log.toString()).select("id"), "id", "left_anti")
          : events;
      List<Row> rows = new ArrayList<>(missing.collectAsList());
      interruption(events).ifPresent(rows::add);
      if (!rows.isEmpty()) {
        EventLog.append(spark, log, rows);
      }
      try {
        Files.delete(spooled);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove the event spool " + spooled, e);
      }
    }
  }
}
