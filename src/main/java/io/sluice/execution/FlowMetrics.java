package io.sluice.execution;

/** What one flow did in one update: for the run summary. */
public final class FlowMetrics {
  private int batches;
  private long rowsWritten;
  private long rowsDropped;

  synchronized void addBatch(long written, long dropped) {
    batches++;
    rowsWritten += written;
    rowsDropped += dropped;
  }

  public synchronized int batches() {
    return batches;
  }

  public synchronized long rowsWritten() {
    return rowsWritten;
  }

  public synchronized long rowsDropped() {
    return rowsDropped;
  }
}
