package io.sluice.execution;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The datasets a batch caches for its several jobs, released together when it ends, however it ends. */
public final class Persisted implements AutoCloseable {
  private final List<Dataset<Row>> datasets = new ArrayList<>();

  /** {@code dataset}, cached until {@link #close}. */
  public Dataset<Row> keep(Dataset<Row> dataset) {
    Dataset<Row> cached = dataset.persist();
    datasets.add(cached);
    return cached;
  }

  /** Releases the datasets kept so far; may be called before the end, and again. */
  @Override
  public void close() {
    datasets.forEach(Dataset::unpersist);
    datasets.clear();
  }
}
