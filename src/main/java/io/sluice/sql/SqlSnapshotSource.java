package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.GraphException;
import io.sluice.graph.SnapshotSource;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code FROM SNAPSHOT (snapshot query) WITH VERSION (version query)} (SEMANTICS §5.2): the
 * version query, where {@code last_snapshot_version()} is the last processed version, gives
 * the next version (one row) or says there is none (no row); the snapshot query, where
 * {@code current_snapshot_version()} is that version, gives its rows.
 */
record SqlSnapshotSource(SqlFlowQuery snapshot, SqlFlowQuery version) implements SnapshotSource {

  @Override
  public DataType versionType(FlowResolution resolution) {
    StructType columns = versionQuery(resolution, null, DataTypes.NullType).schema();
    if (columns.size() != 1) {
      throw new GraphException(ErrorClass.SNAPSHOT_VERSION_QUERY, version.origin().lineOnly(), "the WITH VERSION query of flow '"
          + resolution.flow().name() + "' returns " + columns.size() + " columns (" + String.join(", ",
          columns.fieldNames()) + "); it must return one: the next snapshot's version");
    }
    return columns.fields()[0].dataType();
  }

  /**
   * The snapshot query of the first version, whose columns are the flow's. Its version comes
   * from the version query, since the snapshot query may need one to be analysed at all (a
   * file named after it); with no version yet, NULL, if the query can do with it.
   */
  Dataset<Row> snapshotColumns(FlowResolution resolution) {
    DataType type = versionType(resolution);
    List<Row> first = versionQuery(resolution, null, type).takeAsList(1);
    if (!first.isEmpty() && !first.get(0).isNullAt(0)) {
      return snapshotQuery(resolution, first.get(0).get(0), type);
    }
    try {
      return snapshotQuery(resolution, null, type);
    } catch (GraphException e) {
      throw new GraphException(ErrorClass.SNAPSHOT_NONE, snapshot.origin().lineOnly(), "flow '" + resolution.flow().name()
          + "': its WITH VERSION query finds no snapshot yet, and its snapshot query cannot be analysed without a"
          + " version: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<Versioned> next(FlowResolution resolution, Optional<Object> last) {
    DataType type = versionType(resolution);
    List<Row> rows = versionQuery(resolution, last.orElse(null), type).takeAsList(2);
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    if (rows.size() > 1) {
      throw new SluiceException(ErrorClass.SNAPSHOT_VERSION_QUERY, version.origin().lineOnly(), "the WITH VERSION query of flow '"
          + resolution.flow().name() + "' returned more than one row after version " + last.orElse("(none)")
          + "; it must return the next version alone, e.g. with ORDER BY ... LIMIT 1");
    }
    Object next = zoneFree(rows.get(0).get(0));
    // A NULL version is refused before its snapshot is read (the query could not even find its file).
    return Optional.of(new Versioned(next == null ? null : snapshotQuery(resolution, next, type), next));
  }

  /**
   * Dates and timestamps as {@code LocalDate} and {@code Instant}: a recorded version must
   * mean the same day whatever the time zone of the JVM that reads it back.
   */
  private static Object zoneFree(Object version) {
    if (version instanceof java.sql.Date date) {
      return date.toLocalDate();
    }
    if (version instanceof java.sql.Timestamp timestamp) {
      return timestamp.toInstant();
    }
    return version;
  }

  private Dataset<Row> versionQuery(FlowResolution resolution, Object last, DataType type) {
    return version.binding(SnapshotVersionFunctions.LAST, new SnapshotVersionFunctions.Bound(last, type))
        .build(resolution);
  }

  private Dataset<Row> snapshotQuery(FlowResolution resolution, Object current, DataType type) {
    return snapshot.binding(SnapshotVersionFunctions.CURRENT, new SnapshotVersionFunctions.Bound(current, type))
        .build(resolution);
  }
}
