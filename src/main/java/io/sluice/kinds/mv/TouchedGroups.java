package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import io.sluice.delta.Scala;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.JoinHint$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * The groups of a view that a change of its one input touches: the key values of the changed rows
 * (appended files, or the change data feed's rows, before and after an update), and the view's
 * query over the input's rows of those groups alone, which gives their new rows (none for a group
 * that emptied).
 */
final class TouchedGroups implements AutoCloseable {
  private static final String KEY = "__sluice_key_";
  private final GroupKeys keys;
  private final Dataset<Row> touched;

  private TouchedGroups(GroupKeys keys, Dataset<Row> touched) {
    this.keys = keys;
    this.touched = touched;
  }

  /**
   * {@link Technique#GENERIC_AGGREGATE}: the groups the one changed input's change touches are
   * recomputed from the input's rows of those groups, and replace the view's rows of those groups;
   * a group left with no row goes.
   */
  static void refresh(SparkSession spark, LogicalPlan analyzed, GroupKeys keys, List<InputChange> changes,
      RefreshCommit commit) {
    InputChange change = changes.stream().filter(c -> c.kind() != InputChange.Kind.UNCHANGED).findFirst().orElseThrow();
    try (TouchedGroups touched = of(spark, keys, change)) {
      commit.replace(touched.recomputed(spark, analyzed, change.input().key()), touched.viewKeys(), keys.viewColumns());
    }
  }

  /** The groups {@code change} touches; cached, as the recomputation and the commit both read them. */
  private static TouchedGroups of(SparkSession spark, GroupKeys keys, InputChange change) {
    Dataset<Row> changed = change.kind() == InputChange.Kind.APPENDED
        ? change.input().log().createDataFrame(change.input().snapshot(), Scala.seq(change.appended()), false, Option.empty())
        : change.changedRows(spark);
    List<Column> values = new ArrayList<>();
    for (int i = 0; i < keys.inputColumns().size(); i++) {
      values.add(col(Identifiers.quote(keys.inputColumns().get(i))).as(KEY + i));
    }
    return new TouchedGroups(keys, changed.select(values.toArray(Column[]::new)).distinct().persist());
  }

  /** The touched keys, named as the view's key columns. */
  private Dataset<Row> viewKeys() {
    List<Column> named = new ArrayList<>();
    for (int i = 0; i < keys.viewColumns().size(); i++) {
      named.add(col(KEY + i).as(keys.viewColumns().get(i)));
    }
    return touched.select(named.toArray(Column[]::new));
  }

  /** The view's query with its scan of {@code input} limited to the rows of the touched groups. */
  private Dataset<Row> recomputed(SparkSession spark, LogicalPlan analyzed, String input) {
    LogicalPlan touchedPlan = touched.queryExecution().analyzed();
    List<Attribute> touchedKeys = CollectionConverters.asJava(touchedPlan.output());
    return SparkPlans.ofRows(spark, withInput(analyzed, input, scan -> {
      Expression match = null;
      for (int i = 0; i < keys.inputColumns().size(); i++) {
        String column = keys.inputColumns().get(i);
        Attribute scanned = CollectionConverters.asJava(scan.output()).stream().filter(a -> a.name().equals(column))
            .findFirst().orElseThrow();
        Expression same = new EqualNullSafe(scanned, touchedKeys.get(i));
        match = match == null ? same : new And(match, same);
      }
      return new Join(scan, touchedPlan, LeftSemi$.MODULE$, Option.apply(match), JoinHint$.MODULE$.NONE());
    }));
  }

  /** {@code analyzed} with its scan of the Delta table at {@code input} (its location) replaced by {@code slice} of it. */
  static LogicalPlan withInput(LogicalPlan analyzed, String input, UnaryOperator<LogicalPlan> slice) {
    return analyzed.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return node instanceof LogicalRelation relation && QueryShape.isDelta(node)
            && ((TahoeLogFileIndex) ((HadoopFsRelation) relation.relation()).location()).path().toString().equals(input);
      }

      @Override
      public LogicalPlan apply(LogicalPlan scan) {
        return slice.apply(scan);
      }
    });
  }

  @Override
  public void close() {
    touched.unpersist();
  }
}
