package io.sluice.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.sluice.spec.Storage;
import io.sluice.testsupport.SharedSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events survive an update that never got to commit them (SEMANTICS §7.4): an event log left
 * without its flush, as a killed process leaves it, is found whole by the next reader, with
 * an event saying the update ended without finishing; a line the kill cut short is skipped.
 */
class EventSpoolTest {
  @TempDir Path storage;

  private final SparkSession spark = SharedSpark.session();

  @Test
  void eventsOfAnUpdateKilledBeforeItsFlushAreLoggedByTheNextReader() throws IOException {
    EventLog finished = new EventLog(spark, Storage.local(storage), "p", "u1");
    finished.event(EventLevel.INFO, EventType.UPDATE_PROGRESS, "update is COMPLETED").details(Map.of("state", "COMPLETED")).record();
    finished.flush();

    EventLog killed = new EventLog(spark, Storage.local(storage), "p", "u2");
    killed.event(EventLevel.INFO, EventType.UPDATE_PROGRESS, "update is RUNNING").details(Map.of("state", "RUNNING")).record();
    killed.flush();
    killed.event(EventLevel.METRICS, EventType.FLOW_PROGRESS, "batch 0: 3 rows written").flow("f").batch(0).record();
    killed.event(EventLevel.METRICS, EventType.FLOW_PROGRESS, "batch 1: 2 rows written").flow("f").batch(1).record();
    // No flush: the process is gone. Its last line was being written when it died.
    Path spool = storage.resolve("system/event_spool/u2.jsonl");
    Files.writeString(spool, "{\"id\":\"x\",\"sequ", StandardOpenOption.APPEND);

    List<Row> events = EventLog.read(spark, Storage.local(storage)).orElseThrow()
        .where("origin.update_id = 'u2'").orderBy("sequence").select("sequence", "level", "message", "origin.batch_id")
        .collectAsList();
    assertEquals(List.of(
            "[0,INFO,update is RUNNING,null]",
            "[1,METRICS,batch 0: 3 rows written,0]",
            "[2,METRICS,batch 1: 2 rows written,1]",
            "[3,ERROR,update u2 ended without finishing: its process stopped (killed or crashed),null]"),
        events.stream().map(Row::toString).toList());
    assertFalse(Files.exists(spool), "the spool is cleared once its events are logged");

    assertEquals(1, EventLog.read(spark, Storage.local(storage)).orElseThrow().where("origin.update_id = 'u1'").count(),
        "a finished update's events are logged once, with no end added");
    assertEquals(4, EventLog.read(spark, Storage.local(storage)).orElseThrow().where("origin.update_id = 'u2'").count(),
        "reading again logs nothing twice");
  }
}
