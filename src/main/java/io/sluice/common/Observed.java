package io.sluice.common;

import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import scala.concurrent.Await;
import scala.concurrent.duration.FiniteDuration;

/**
 * Figures that a Spark job computes as it reads a dataset, for a job that reads it anyway
 * (Spark's observed metrics): a count costs no pass of its own. Spark reports them from its
 * listener bus once the first job that read the dataset has ended; {@link #figures} is for
 * after that job.
 */
public final class Observed {
  /** A bound against a hang, should no job have read the dataset: not a measure of speed. */
  private static final long REPORT_TIMEOUT_SECONDS = 120;
  private final Observation observation = new Observation("sluice_" + java.util.UUID.randomUUID().toString().replace("-", ""));
  private final String what;

  /** @param what what the figures are of, for the message should Spark not report them */
  public Observed(String what) {
    this.what = what;
  }

  /** {@code rows}, observed: the aggregates' values are the figures. */
  public Dataset<Row> of(Dataset<Row> rows, Column first, Column... more) {
    return rows.observe(observation, first, more);
  }

  /**
   * The figures, in the order of the aggregates, once the first job that read the rows has ended;
   * an empty row when Spark left the rows out of that job's plan, knowing them empty (a query
   * {@code WHERE false}, say).
   */
  public Row figures() {
    try {
      return Await.result(observation.future(), FiniteDuration.apply(REPORT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Spark did not report the figures of " + what + " within " + REPORT_TIMEOUT_SECONDS
          + " s of the job that read it", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the figures of " + what, e);
    }
  }
}
