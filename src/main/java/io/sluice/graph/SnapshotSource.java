package io.sluice.graph;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;

/**
 * The versioned snapshots of a historical AUTO CDC FROM SNAPSHOT flow (SEMANTICS §5.2): a
 * SQL version query with its snapshot query, or a Java function. The flow asks for the
 * next snapshot until there is none.
 */
public interface SnapshotSource {
  /** The versions' type, known before any snapshot is taken; it types SCD 2's version columns. */
  DataType versionType(FlowResolution resolution);

  /**
   * The snapshot that follows {@code last} (none when no snapshot was processed yet), or
   * empty when there is none for now.
   */
  Optional<Versioned> next(FlowResolution resolution, Optional<Object> last);

  /** One snapshot and its version; the version orders snapshots and must grow (a NULL version has no rows). */
  record Versioned(Dataset<Row> rows, Object version) {}
}
