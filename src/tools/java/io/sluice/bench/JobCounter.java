package io.sluice.bench;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/**
 * Counts the Spark jobs a piece of work runs: each one costs scheduling and planning time
 * even when it has almost nothing to do, so a benchmark reports them beside its seconds.
 */
final class JobCounter extends SparkListener {
  private final SparkSession spark;
  private final AtomicLong started = new AtomicLong();

  private JobCounter(SparkSession spark) {
    this.spark = spark;
  }

  /** A counter listening to {@code spark}'s jobs from now on. */
  static JobCounter on(SparkSession spark) {
    JobCounter counter = new JobCounter(spark);
    spark.sparkContext().addSparkListener(counter);
    return counter;
  }

  @Override
  public void onJobStart(SparkListenerJobStart jobStart) {
    started.incrementAndGet();
  }

  /** How many jobs {@code work} started (listener events are delivered asynchronously, so they are waited for). */
  long count(Runnable work) {
    drain();
    long before = started.get();
    work.run();
    drain();
    return started.get() - before;
  }

  private void drain() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Spark's listener bus did not drain", e);
    }
  }
}
