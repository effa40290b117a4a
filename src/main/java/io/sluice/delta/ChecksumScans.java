package io.sluice.delta;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Subquery;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.delta.DeltaTableUtils;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.files.TahoeBatchFileIndex;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractPartialFunction;

/**
 * Plans each scan of a small Delta table from the file list that Delta keeps in the checksum of
 * the version it reads (tables of at most 50 files, {@code allFilesInCrc}), with no Spark job.
 * Delta plans a scan ({@code PrepareDeltaScan}) from the version's state, in jobs of its own
 * however small the table: the log's replay and cache the first time a process reads that
 * version, the state's size, the data skipping. Every query of a pipeline paid them for every
 * table it read, a few tenths of a second each.
 *
 * <p>The files are those the checksum lists, less those whose statistics rule out the filter
 * right above the scan ({@link FileStatsPredicate}); the rows are the same, the filter still runs.
 * Each table is read at one version per query, as Delta pins it. Left to Delta: a scan inside a
 * Delta transaction (the transaction records what it reads for its conflict checks), a subquery
 * planned on its own (Delta plans it with its query), a table with column mapping or a partition
 * filter in its index, and a version whose checksum holds no list (more files, an older writer).
 */
public final class ChecksumScans extends Rule<LogicalPlan> {
  private final SparkSession session;

  public ChecksumScans(SparkSession session) {
    this.session = session;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof Subquery || OptimisticTransaction.getActive().isDefined()) {
      return plan;
    }
    Map<String, Snapshot> pinned = new HashMap<>();
    return plan.transformDownWithSubqueries(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return deltaIndex(node instanceof Filter filter ? filter.child() : node).isPresent();
      }

      @Override
      public LogicalPlan apply(LogicalPlan node) {
        Optional<Expression> condition = node instanceof Filter filter ? Optional.of(filter.condition()) : Optional.empty();
        TahoeLogFileIndex index = deltaIndex(node instanceof Filter filter ? filter.child() : node).orElseThrow();
        if (!index.partitionFilters().isEmpty()) {
          return node;
        }
        Snapshot snapshot = index.isTimeTravelQuery() ? index.getSnapshot()
            : pinned.computeIfAbsent(index.deltaLog().compositeId().toString(), id -> index.getSnapshot());
        Optional<Seq<AddFile>> files = FileSkipping.listed(session, snapshot, condition);
        if (files.isEmpty()) {
          return node;
        }
        return DeltaTableUtils.replaceFileIndex(node, new TahoeBatchFileIndex(session, "sluice scan", files.get(),
            index.deltaLog(), index.path(), snapshot, false));
      }
    });
  }

  private static Optional<TahoeLogFileIndex> deltaIndex(LogicalPlan node) {
    return node instanceof LogicalRelation relation && relation.relation() instanceof HadoopFsRelation files
        && files.location() instanceof TahoeLogFileIndex index ? Optional.of(index) : Optional.empty();
  }
}
