package io.sluice.api;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.GraphException;
import io.sluice.graph.SnapshotSource;
import java.util.Optional;
import org.apache.spark.sql.catalyst.JavaTypeInference;
import org.apache.spark.sql.types.DataType;

/** Versioned snapshots from a user's {@link SnapshotFunction}. */
final class FunctionSnapshotSource<V extends Comparable<? super V>> implements SnapshotSource {
  private final Class<V> versionClass;
  private final SnapshotFunction<V> function;
  private final Origin origin;

  FunctionSnapshotSource(Class<V> versionClass, SnapshotFunction<V> function, Origin origin) {
    this.versionClass = versionClass;
    this.function = function;
    this.origin = origin;
  }

  @Override
  public DataType versionType(FlowResolution resolution) {
    try {
      return JavaTypeInference.encoderFor(versionClass).dataType();
    } catch (RuntimeException e) {
      throw new GraphException(ErrorClass.SNAPSHOT_VERSION_NOT_ORDERABLE, origin, "flow '" + resolution.flow().name()
          + "': versions of class " + versionClass.getName() + " have no Spark type; use a number, String,"
          + " LocalDate or Instant", e);
    }
  }

  @Override
  public Optional<Versioned> next(FlowResolution resolution, Optional<Object> last) {
    Optional<V> lastVersion;
    try {
      lastVersion = last.map(versionClass::cast);
    } catch (ClassCastException e) {
      throw new SluiceException(ErrorClass.SNAPSHOT_VERSION_TYPE_CHANGED, origin, "flow '" + resolution.flow().name()
          + "': the last processed version " + last.get() + " is a " + last.get().getClass().getName() + ", not a "
          + versionClass.getName() + "; a full refresh starts the flow's versions again", e);
    }
    return function.next(new ResolutionContext(resolution), lastVersion).map(s -> new Versioned(s.rows(), s.version()));
  }
}
