package io.sluice.graph;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Fixes the version of each table a flow reads as a batch, so that a run of the flow again
 * after a crash reads the rows its first attempt read (SEMANTICS §7.1, for a flow that runs once).
 */
@FunctionalInterface
public interface TablePins {
  /** Reads nothing pinned: every table at its latest version. */
  TablePins NONE = table -> Optional.empty();

  /** {@code table} at its pinned version, or empty when it has none (it is not a Delta table). */
  Optional<Dataset<Row>> read(DatasetName table);
}
