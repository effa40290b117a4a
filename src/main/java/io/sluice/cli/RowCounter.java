package io.sluice.cli;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * The rows Spark's finished tasks have read and written so far, whatever the job: enough to
 * show that a long flow is moving. Spark reports tasks as they end, so a flow whose tasks are
 * all still running shows none yet.
 */
final class RowCounter extends SparkListener {
  private final AtomicLong read = new AtomicLong();
  private final AtomicLong written = new AtomicLong();

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    TaskMetrics metrics = end.taskMetrics();
    if (metrics != null) {
      read.addAndGet(metrics.inputMetrics().recordsRead());
      written.addAndGet(metrics.outputMetrics().recordsWritten());
    }
  }

  long read() {
    return read.get();
  }

  long written() {
    return written.get();
  }
}
