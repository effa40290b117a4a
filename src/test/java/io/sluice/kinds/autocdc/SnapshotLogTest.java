package io.sluice.kinds.autocdc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.StoragePath;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot log's entries on disk: readable typed JSON that reads back equal, and the older format. */
class SnapshotLogTest {
  @TempDir Path dir;

  @Test
  void everyVersionTypeReadsBackEqualAndOfTheSameClass() {
    List<Object> versions = List.of(42L, 7, (short) 3, (byte) 1, 2.5d, 1.5f, new BigDecimal("12.340"), true, "2026-11-30",
        Date.valueOf("2026-11-30"), LocalDate.of(2026, 11, 30), Timestamp.valueOf("2026-11-30 08:00:00.123456"),
        Instant.parse("2026-11-30T08:00:00.123456Z"), LocalDateTime.of(2026, 11, 30, 8, 0));
    for (Object version : versions) {
      SnapshotLog log = SnapshotLog.open(StoragePath.local(dir.resolve(version.getClass().getSimpleName())));
      log.commit(new SnapshotEntry(3, version, 9, Optional.of("abc")));
      SnapshotEntry read = log.last().orElseThrow();
      assertEquals(version, read.version(), version.getClass().getName());
      assertEquals(version.getClass(), read.version().getClass());
      assertEquals(new SnapshotEntry(3, version, 9, Optional.of("abc")), read);
    }
    SnapshotLog binary = SnapshotLog.open(StoragePath.local(dir.resolve("binary")));
    binary.commit(new SnapshotEntry(0, new byte[] {1, 2}, -1, Optional.empty()));
    assertArrayEquals(new byte[] {1, 2}, (byte[]) binary.last().orElseThrow().version());
  }

  @Test
  void anEntryIsJsonAUserCanRead() throws IOException {
    SnapshotLog log = SnapshotLog.open(StoragePath.local(dir));
    log.begin(new SnapshotEntry(4, Timestamp.valueOf("2026-11-30 08:00:00"), 12, Optional.empty()));
    String text = Files.readString(dir.resolve("pending"));
    assertTrue(text.contains("\"number\" : 4") && text.contains("\"type\" : \"timestamp\"")
        && text.contains("\"value\" : \"2026-11-30 08:00:00.0\"") && text.contains("\"table_version_before\" : 12"), text);
    List<SnapshotEntry> finished = new ArrayList<>();
    log.settle(entry -> entry.number() == 4 && entry.tableVersionBefore() == 12, finished::add);
    assertEquals(1, finished.size(), "a pending snapshot whose commit happened is finished");
    assertEquals(5, log.nextNumber());
    log.begin(new SnapshotEntry(5, Timestamp.valueOf("2026-11-30 09:00:00"), 13, Optional.empty()));
    log.settle(entry -> false, finished::add);
    assertEquals(1, finished.size(), "a pending snapshot whose commit did not happen is forgotten");
    assertEquals(5, log.nextNumber());
  }

  @Test
  void anEntryOfTheOlderFormatIsStillRead() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(Timestamp.valueOf("2026-11-29 10:00:00"));
    }
    Files.writeString(dir.resolve("last"), "#AUTO CDC FROM SNAPSHOT: last snapshot\nnumber=2\n"
        + "version=2026-11-29 10\\:00\\:00.0\nserialized=" + Base64.getEncoder().encodeToString(bytes.toByteArray())
        + "\ntable_version_before=5\n");
    SnapshotEntry entry = SnapshotLog.open(StoragePath.local(dir)).last().orElseThrow();
    assertEquals(new SnapshotEntry(2, Timestamp.valueOf("2026-11-29 10:00:00"), 5, Optional.empty()), entry);
  }

  @Test
  void aVersionOfAnotherTypeIsRefusedWhenRecorded() {
    SnapshotLog log = SnapshotLog.open(StoragePath.local(dir));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> log.begin(new SnapshotEntry(0, List.of(1), -1, Optional.empty())));
    assertTrue(e.getMessage().contains("cannot be recorded"), e.getMessage());
  }
}
