package io.sluice.testing;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/** Counts the Spark jobs a piece of work starts (each costs its scheduling, whatever its size). */
public final class SparkJobs {
  private SparkJobs() {}

  public static int count(SparkSession spark, Runnable work) {
    AtomicInteger jobs = new AtomicInteger();
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        jobs.incrementAndGet();
      }
    };
    drain(spark);
    spark.sparkContext().addSparkListener(listener);
    try {
      work.run();
      drain(spark);
      return jobs.get();
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
  }

  /** Listener events arrive asynchronously: waits for those already posted. */
  private static void drain(SparkSession spark) {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (TimeoutException e) {
      throw new IllegalStateException("Spark's listener bus did not drain", e);
    }
  }
}
