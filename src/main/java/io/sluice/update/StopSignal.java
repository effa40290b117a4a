package io.sluice.update;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Asks a running update to stop (SEMANTICS §10.1): once asked, no flow and no batch starts;
 * the batch in flight finishes. Safe to call from any thread, e.g. a signal handler.
 */
public final class StopSignal {
  private final CountDownLatch asked = new CountDownLatch(1);
  private volatile String reason;

  /** Asks the update to stop; {@code reason} says who asked, e.g. "SIGTERM". The first ask counts. */
  public synchronized void request(String reason) {
    if (this.reason == null) {
      this.reason = reason;
      asked.countDown();
    }
  }

  public boolean requested() {
    return reason != null;
  }

  /** Who asked the update to stop, if anyone did. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /** Waits until {@code until} or until the update is asked to stop, whichever comes first. */
  void sleepUntil(Instant until) {
    Duration wait = Duration.between(Instant.now(), until);
    if (wait.isNegative() || wait.isZero()) {
      return;
    }
    try {
      asked.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      request("interrupt");
    }
  }
}
