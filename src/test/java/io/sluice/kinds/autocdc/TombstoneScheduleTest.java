package io.sluice.kinds.autocdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.storage.StoragePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the store is looked through for expired tombstones: at most every tenth of the threshold. */
class TombstoneScheduleTest {
  private static final Duration TWO_DAYS = Duration.ofDays(2);
  private static final Instant START = Instant.parse("2026-12-02T00:00:00Z");

  @TempDir Path dir;
  private final AtomicInteger looks = new AtomicInteger();

  private void updateAt(Instant at) {
    new TombstoneSchedule(StoragePath.local(dir.resolve("checked-at")), Clock.fixed(at, ZoneOffset.UTC)).lookIfDue(TWO_DAYS, looks::incrementAndGet);
  }

  @Test
  void theFirstUpdateLooksThenOnlyOnceATenthOfTheThresholdHasPassed() {
    updateAt(START);
    assertEquals(1, looks.get(), "no look recorded: one is due");
    updateAt(START.plus(Duration.ofHours(4)));
    assertEquals(1, looks.get(), "4 hours after a look, with two days' threshold");
    updateAt(START.plus(Duration.ofMinutes(288)));
    assertEquals(2, looks.get(), "4.8 hours: a tenth of two days");
    updateAt(START.plus(Duration.ofMinutes(289)));
    assertEquals(2, looks.get());
  }

  @Test
  void aLookThatFailsIsNotRecordedAndAnUnreadableRecordMeansALookIsDue() throws Exception {
    TombstoneSchedule schedule = new TombstoneSchedule(StoragePath.local(dir.resolve("checked-at")), Clock.fixed(START, ZoneOffset.UTC));
    assertThrows(IllegalStateException.class, () -> schedule.lookIfDue(TWO_DAYS, () -> {
      throw new IllegalStateException("the MERGE failed");
    }));
    updateAt(START);
    assertEquals(1, looks.get(), "the failed look left no record");
    Files.writeString(dir.resolve("checked-at"), "garbage");
    updateAt(START);
    assertEquals(2, looks.get());
  }
}
