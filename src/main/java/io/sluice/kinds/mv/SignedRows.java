package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import io.sluice.delta.KeyedCommit;
import io.sluice.delta.Scala;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * A row-by-row view's change, as rows with a sign: its query over the rows its inputs gained
 * (appended, inserted, an update's new values), +1, and over the rows they lost (deleted, an
 * update's old values), -1. Each scan of an input in the query is replaced by those rows, with
 * the scan's own columns, so the rest of the plan is the view's own.
 */
final class SignedRows {
  static final String SIGN = "__sluice_sign";
  private static final List<String> GAINED = List.of(KeyedCommit.INSERT, KeyedCommit.UPDATE_POSTIMAGE);
  private static final List<String> LOST = List.of(KeyedCommit.DELETE, KeyedCommit.UPDATE_PREIMAGE);

  private SignedRows() {}

  /** The query's rows that the changes add, signed +1, with those they take away, signed -1. */
  static Dataset<Row> of(SparkSession spark, LogicalPlan analyzed, List<InputChange> changes) {
    return gained(spark, analyzed, changes).withColumn(SIGN, lit(1))
        .unionByName(rows(spark, analyzed, changes, false).withColumn(SIGN, lit(-1)));
  }

  /** The query's rows that the changes add: after appends alone, the view's new rows. */
  static Dataset<Row> gained(SparkSession spark, LogicalPlan analyzed, List<InputChange> changes) {
    return rows(spark, analyzed, changes, true);
  }

  private static Dataset<Row> rows(SparkSession spark, LogicalPlan analyzed, List<InputChange> changes, boolean gained) {
    Map<String, InputChange> byInput = changes.stream().collect(Collectors.toMap(c -> c.input().key(), Function.identity()));
    return SparkPlans.ofRows(spark, analyzed.transformUp(scans(spark, byInput, gained)));
  }

  private static AbstractPartialFunction<LogicalPlan, LogicalPlan> scans(SparkSession spark, Map<String, InputChange> byInput,
      boolean gained) {
    return new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return QueryShape.isDelta(node);
      }

      @Override
      public LogicalPlan apply(LogicalPlan scan) {
        TahoeLogFileIndex index = (TahoeLogFileIndex) ((HadoopFsRelation) ((LogicalRelation) scan).relation()).location();
        InputChange change = byInput.get(index.path().toString());
        if (change == null || change.kind() == InputChange.Kind.UNCHANGED
            || change.kind() == InputChange.Kind.APPENDED && !gained) {
          return new LocalRelation(scan.output(), scala.collection.immutable.List$.MODULE$.empty(), false, Option.empty());
        }
        Dataset<Row> rows = change.kind() == InputChange.Kind.APPENDED
            ? change.input().log().createDataFrame(change.input().snapshot(), Scala.seq(change.appended()), false, Option.empty())
            : change.changedRows(spark).where(col(KeyedCommit.CHANGE_TYPE).isin((gained ? GAINED : LOST).toArray()));
        return sameColumns(scan, rows.queryExecution().analyzed());
      }
    };
  }

  /** {@code rows} with the columns of {@code scan}, attribute for attribute, so that the plan above the scan reads them. */
  private static LogicalPlan sameColumns(LogicalPlan scan, LogicalPlan rows) {
    List<Attribute> available = CollectionConverters.asJava(rows.output());
    List<NamedExpression> columns = new ArrayList<>();
    for (Attribute column : CollectionConverters.asJava(scan.output())) {
      Attribute source = available.stream().filter(a -> a.name().equals(column.name())).findFirst().orElseThrow();
      columns.add(new Alias(source, column.name(), column.exprId(), Scala.seq(List.of()), Option.empty(), Scala.seq(List.of())));
    }
    return new Project(Scala.seq(columns), rows);
  }

  /** Columns by name. */
  static Column[] columns(List<String> names) {
    return names.stream().map(n -> col(Identifiers.quote(n))).toArray(Column[]::new);
  }
}
