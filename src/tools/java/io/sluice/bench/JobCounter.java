package io.sluice.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
  private final List<String> descriptions = Collections.synchronizedList(new ArrayList<>());

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
    String description = jobStart.properties() == null ? null : jobStart.properties().getProperty("spark.job.description");
    // A micro-batch's jobs all carry the stream's start as their call site; the tasks of the
    // final stage tell them apart (a job's stage count would include the stages whose output an
    // earlier job of the batch left, which it skips).
    String tasks = jobStart.stageInfos().isEmpty() ? "" : " [" + jobStart.stageInfos().last().numTasks() + " task(s)]";
    descriptions.add(oneLine(description) + tasks);
  }

  /** How many jobs {@code work} started (listener events are delivered asynchronously, so they are waited for). */
  long count(Runnable work) {
    drain();
    long before = started.get();
    work.run();
    drain();
    return started.get() - before;
  }

  /**
   * The description of each job {@code work} started (Spark UI's; Sluice labels its own with
   * what they do), in order: what a benchmark prints to show where a small batch's time goes.
   */
  List<String> describe(Runnable work) {
    drain();
    int before = descriptions.size();
    work.run();
    drain();
    synchronized (descriptions) {
      return List.copyOf(descriptions.subList(before, descriptions.size()));
    }
  }

  /** A stream's job description starts with its id and run id, one per line: only what follows says what the job does. */
  private static String oneLine(String description) {
    if (description == null) {
      return "(no description)";
    }
    String text = description.contains("batch = ") ? description.substring(description.indexOf("batch = ")) : description;
    return text.replaceAll("\\s+", " ").trim();
  }

  private void drain() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Spark's listener bus did not drain", e);
    }
  }
}
