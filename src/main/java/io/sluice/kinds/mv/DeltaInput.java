package io.sluice.kinds.mv;

import io.sluice.common.SparkPlans;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.SnapshotDescriptor;
import org.apache.spark.sql.delta.VersionChecksum;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.Option;
import scala.runtime.BoxedUnit;

/**
 * A Delta table a view's query reads, at the version its analysis took.
 *
 * @param key the table's location, which names it in a {@link RefreshState}
 * @param name how messages name it: its catalog name, else its location
 */
record DeltaInput(String key, String name, DeltaLog log, SnapshotDescriptor snapshot) {
  long version() {
    return snapshot.version();
  }

  /** The bytes of its data files, from the version's checksum when Delta wrote one. */
  long bytes() {
    return bytes(snapshot instanceof Snapshot s ? s : log.getSnapshotAt(snapshot.version(), Option.empty(), Option.empty(), false));
  }

  /** The bytes of a table version's data files, from its checksum when Delta wrote one. */
  static long bytes(Snapshot snapshot) {
    Option<VersionChecksum> checksum = snapshot.checksumOpt();
    return checksum.isDefined() ? checksum.get().tableSizeBytes() : snapshot.sizeInBytes();
  }

  /**
   * The bytes of the files the scans of {@code plan} read once Spark's optimizer planned them:
   * Delta prunes partitions and skips files by the plan's literal conditions.
   */
  static long bytesScanned(SparkSession spark, LogicalPlan plan) {
    long[] bytes = {0};
    SparkPlans.ofRows(spark, plan).queryExecution().optimizedPlan().foreach(node -> {
      if (node instanceof LogicalRelation relation && relation.relation() instanceof HadoopFsRelation files) {
        bytes[0] += files.location().sizeInBytes();
      }
      return BoxedUnit.UNIT;
    });
    return bytes[0];
  }

  /** Every Delta table {@code plan} reads, its subqueries included, once each, by location. */
  static List<DeltaInput> of(LogicalPlan plan) {
    Map<String, DeltaInput> inputs = new LinkedHashMap<>();
    plan.foreachWithSubqueries(node -> {
      if (node instanceof LogicalRelation relation && relation.relation() instanceof HadoopFsRelation files
          && files.location() instanceof TahoeLogFileIndex delta) {
        String key = delta.path().toString();
        String name = relation.catalogTable().isDefined() ? relation.catalogTable().get().identifier().unquotedString() : key;
        inputs.putIfAbsent(key, new DeltaInput(key, name, delta.deltaLog(), delta.snapshotAtAnalysis()));
      }
      return BoxedUnit.UNIT;
    });
    return List.copyOf(inputs.values());
  }
}
