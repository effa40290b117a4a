package io.sluice.kinds.mv;

import io.sluice.common.SparkPlans;
import io.sluice.delta.Scala;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.DeltaTableUtils$;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.files.TahoeBatchFileIndex;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.runtime.AbstractPartialFunction;

/**
 * A view's query over the rows its inputs appended since the last refresh, and nothing else: each
 * scan of a Delta input reads only the files that input appended (none for an unchanged input),
 * with the same columns, so the rest of the plan is the view's own.
 */
final class AppendedRows {
  private AppendedRows() {}

  static Dataset<Row> of(SparkSession spark, LogicalPlan analyzed, List<InputChange> changes) {
    Map<String, InputChange> byInput = changes.stream().collect(Collectors.toMap(c -> c.input().key(), Function.identity()));
    return SparkPlans.ofRows(spark, analyzed.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return QueryShape.isDelta(node);
      }

      @Override
      public LogicalPlan apply(LogicalPlan node) {
        TahoeLogFileIndex scanned = (TahoeLogFileIndex) ((HadoopFsRelation) ((LogicalRelation) node).relation()).location();
        InputChange change = byInput.get(scanned.path().toString());
        List<AddFile> files = change == null ? List.of() : change.appended();
        TahoeBatchFileIndex appended = new TahoeBatchFileIndex(spark, "sluice-refresh", Scala.seq(files), scanned.deltaLog(),
            scanned.path(), scanned.snapshotAtAnalysis(), false);
        return DeltaTableUtils$.MODULE$.replaceFileIndex(node, appended);
      }
    }));
  }
}
