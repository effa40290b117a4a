package io.sluice.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/**
 * Counts the Spark jobs a piece of work runs: each one costs scheduling and planning time
 * even when it has almost nothing to do, so a benchmark reports them beside its seconds.
 */
final class JobCounter extends SparkListener {
  private final SparkSession spark;
  private final List<Job> startedJobs = new ArrayList<>();
  private final Map<Integer, Job> running = new ConcurrentHashMap<>();

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
    String description = jobStart.properties() == null ? null : jobStart.properties().getProperty("spark.job.description");
    // A micro-batch's jobs all carry the stream's start as their call site; the tasks of the
    // final stage tell them apart (a job's stage count would include the stages whose output an
    // earlier job of the batch left, which it skips).
    String tasks = jobStart.stageInfos().isEmpty() ? "" : " [" + jobStart.stageInfos().last().numTasks() + " task(s)]";
    Job job = new Job(oneLine(description) + tasks, jobStart.time());
    running.put(jobStart.jobId(), job);
    synchronized (startedJobs) {
      startedJobs.add(job);
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd jobEnd) {
    Job job = running.remove(jobEnd.jobId());
    if (job != null) {
      job.endMillis = jobEnd.time();
    }
  }

  /** How many jobs {@code work} started (listener events are delivered asynchronously, so they are waited for). */
  long count(Runnable work) {
    return describe(work).size();
  }

  /**
   * Each job {@code work} started, in order, with its description (Spark UI's; Sluice labels
   * its own with what they do) and how long it ran: what a benchmark prints to show where an
   * update's time goes.
   */
  List<String> describe(Runnable work) {
    drain();
    int before;
    synchronized (startedJobs) {
      before = startedJobs.size();
    }
    work.run();
    drain();
    synchronized (startedJobs) {
      return startedJobs.subList(before, startedJobs.size()).stream().map(Job::toString).toList();
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

  /** A started job; its end is set by the listener bus's thread and read after it drained. */
  private static final class Job {
    private final String description;
    private final long startMillis;
    private volatile long endMillis = -1;

    Job(String description, long startMillis) {
      this.description = description;
      this.startMillis = startMillis;
    }

    @Override
    public String toString() {
      return endMillis < 0 ? description + " (still running)"
          : String.format(Locale.ROOT, "%s %.2f s", description, (endMillis - startMillis) / 1000.0);
    }
  }
}
