package io.sluice.testsupport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/** Counts the Spark jobs a piece of work starts (each costs its scheduling, whatever its size). */
public final class SparkJobs {
  private SparkJobs() {}

  public static int count(SparkSession spark, Runnable work) {
    return descriptions(spark, work).size();
  }

  /** The description of each Spark job the work starts, as the Spark UI shows it ("" for none). */
  public static List<String> descriptions(SparkSession spark, Runnable work) {
    List<String> jobs = Collections.synchronizedList(new ArrayList<>());
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        String description = jobStart.properties() == null ? null
            : jobStart.properties().getProperty("spark.job.description");
        jobs.add(description == null ? "" : description);
      }
    };
    drain(spark);
    spark.sparkContext().addSparkListener(listener);
    try {
      work.run();
      drain(spark);
      return List.copyOf(jobs);
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
