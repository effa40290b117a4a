package io.sluice.execution;

import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Names the part of a batch that a Spark job belongs to, in the job's description: the Spark UI
 * and any listener then tell a batch's change planning, its counts and its writes apart
 * (Spark's streaming gives every job of a micro-batch the same description). The phase follows what the description said before, which comes back after; a phase
 * within another follows it ({@code batch = 3 · sluice: changes > counts}).
 */
public final class JobPhase {
  /** Spark's own key ({@code SparkContext.SPARK_JOB_DESCRIPTION}, not public in Java). */
  static final String DESCRIPTION = "spark.job.description";
  private static final String MARK = "sluice: ";

  private JobPhase() {}

  /** Runs {@code body} with its Spark jobs described as {@code phase}. */
  public static <T> T labelled(SparkSession session, String phase, Supplier<T> body) {
    SparkContext context = session.sparkContext();
    String before = context.getLocalProperty(DESCRIPTION);
    String within = before == null ? MARK + phase
        : before.contains(MARK) ? before + " > " + phase : before + " · " + MARK + phase;
    context.setLocalProperty(DESCRIPTION, within);
    try {
      return body.get();
    } finally {
      context.setLocalProperty(DESCRIPTION, before);
    }
  }
}
