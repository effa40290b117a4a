package io.sluice.execution;

import io.sluice.expectations.BatchQuality;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What one flow did in one update: for the run summary. */
public final class FlowMetrics {
  private int batches;
  private long rowsWritten;
  private long rowsDropped;
  private long rowsRescued;
  private final Map<String, Long> kindMetrics = new LinkedHashMap<>();
  private final Map<String, Long> failedRows = new LinkedHashMap<>();

  /** Adds one batch; {@code kind} holds the flow kind's own counts (REPLACE USING's keys replaced, ...). */
  synchronized void addBatch(long written, BatchQuality quality, Map<String, Object> kind) {
    batches++;
    long dropped = quality.droppedRows();
    rowsRescued += quality.rescuedRows();
    quality.expectations().forEach(e -> failedRows.merge(e.name() + " (" + e.action().name().toLowerCase(Locale.ROOT) + ")",
        e.failedRecords(), Long::sum));
    rowsWritten += written;
    rowsDropped += dropped;
    kind.forEach((name, value) -> {
      if (value instanceof Number number) {
        kindMetrics.merge(name, number.longValue(), Long::sum);
      }
    });
  }

  /** The flow kind's own counts, summed over the update's batches. */
  public synchronized Map<String, Long> kindMetrics() {
    return Map.copyOf(kindMetrics);
  }

  /** Per expectation, as "name (action)", the rows that failed it over the update's batches. */
  public synchronized Map<String, Long> expectationFailures() {
    return new LinkedHashMap<>(failedRows);
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

  /** Rows with a rescued data column set: some of their input did not parse. */
  public synchronized long rowsRescued() {
    return rowsRescued;
  }
}
