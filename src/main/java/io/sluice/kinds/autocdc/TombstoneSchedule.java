package io.sluice.kinds.autocdc;

import io.sluice.storage.StoragePath;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When an SCD type 1 target's state store is next looked through for expired tombstones.
 * A look costs Spark jobs in every update, even one with nothing new, while SEMANTICS §4
 * keeps a delete for <em>at least</em> the threshold: so the store is looked through only
 * once a tenth of the threshold has passed since the last look (with the default two days,
 * every 4.8 hours). A tombstone is then forgotten within 1.1 thresholds of being recorded,
 * or at the first update after that.
 *
 * <p>The time of the last completed look is a file beside the flows' checkpoints, cleared
 * with them by a full refresh; a look that fails records nothing.
 */
final class TombstoneSchedule {
  private static final long LOOKS_PER_THRESHOLD = 10;
  private final StoragePath file;
  private final Clock clock;

  TombstoneSchedule(StoragePath file, Clock clock) {
    this.file = file;
    this.clock = clock;
  }

  /** Runs {@code look} if it is due within {@code threshold}, and records when it started. */
  void lookIfDue(Duration threshold, Runnable look) {
    Instant now = clock.instant();
    Optional<Instant> last = lastLook();
    if (last.isPresent() && Duration.between(last.get(), now).compareTo(threshold.dividedBy(LOOKS_PER_THRESHOLD)) < 0) {
      return;
    }
    look.run();
    file.write(Long.toString(now.toEpochMilli()));
  }

  /** The start of the last completed look; none when the file is missing or unreadable (then one is due). */
  private Optional<Instant> lastLook() {
    try {
      return file.readIfExists().map(text -> Instant.ofEpochMilli(Long.parseLong(text.trim())));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
