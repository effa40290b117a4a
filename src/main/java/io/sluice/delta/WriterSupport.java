package io.sluice.delta;

import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Metadata;
import org.apache.spark.sql.delta.commands.DeletionVectorUtils$;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Whether {@link KeyedCommit} can write a table. It writes deletion vectors and plain data files;
 * a table that needs more of each write (row ids, generated or identity values, column mapping's
 * physical names) is written by a MERGE, which does all that. The change data feed it writes itself.
 */
public final class WriterSupport {
  /** Table features whose writes the writer makes as Delta's own writes do, or that ask nothing of a write. */
  private static final Set<String> HANDLED_FEATURES = Set.of("appendOnly", "invariants", "checkConstraints",
      "changeDataFeed", "columnMapping", "deletionVectors", "timestampNtz", "v2Checkpoint", "vacuumProtocolCheck",
      "inCommitTimestamp", "domainMetadata", "clustering", "variantType", "variantType-preview");

  private WriterSupport() {}

  /** Why the writer cannot write the table at {@code snapshot}: empty when it can. */
  public static Optional<String> whyNot(Snapshot snapshot) {
    Metadata metadata = snapshot.metadata();
    if (!DeletionVectorUtils$.MODULE$.deletionVectorsWritable(snapshot.protocol(), metadata)) {
      return Optional.of("it has no deletion vectors (delta.enableDeletionVectors)");
    }
    if ("true".equalsIgnoreCase(property(metadata, "delta.appendOnly"))) {
      return Optional.of("it is append-only (delta.appendOnly)");
    }
    String mapping = property(metadata, "delta.columnMapping.mode");
    if (mapping != null && !mapping.equalsIgnoreCase("none")) {
      return Optional.of("it maps column names (delta.columnMapping.mode = " + mapping + ")");
    }
    for (String feature : CollectionConverters.asJava(snapshot.protocol().writerFeatureNames())) {
      if (!HANDLED_FEATURES.contains(feature)) {
        return Optional.of("it has the table feature " + feature);
      }
    }
    return Optional.empty();
  }

  private static String property(Metadata metadata, String key) {
    scala.Option<String> value = metadata.configuration().get(key);
    return value.isDefined() ? value.get() : null;
  }
}
