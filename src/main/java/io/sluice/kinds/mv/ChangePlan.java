package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import io.sluice.delta.KeyedCommit;
import io.sluice.delta.Scala;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.planning.ExtractEquiJoinKeys$;
import org.apache.spark.sql.catalyst.plans.Cross$;
import org.apache.spark.sql.catalyst.plans.Inner$;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftAnti$;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.RightOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Generate;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.JoinHint;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.catalyst.plans.logical.Window;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.Option;
import scala.Tuple8;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * The change of a view's query between the inputs' versions its last refresh saw and their
 * versions now, as two plans: the rows the query gains and the rows it loses. It is derived
 * operator by operator from what each input gained and lost (docs/sql.md, "How a materialized view
 * refreshes"):
 * <ul>
 *   <li>a row-wise operator (projection, filter, UNION ALL, generator) maps the change;
 *   <li>a join pairs one side's change with the other side, that side as the last refresh saw it
 *       when the change is the left side's, as it is now when it is the right side's, so that both
 *       sides' changes add up; where an outer, semi or anti join's output for other rows depends
 *       on the change (an outer join's padded rows, a semi join's matches), the join is computed
 *       over the join keys the change touches, before and after;
 *   <li>a window recomputes the partitions the change touches, before and after.
 * </ul>
 * Rows of those keys and partitions thus appear both lost and gained; counted by value (see
 * {@link RowCounts}), what did not change cancels out.
 */
final class ChangePlan {
  static final String SIGN = "__sluice_sign";
  private static final List<String> GAINED = List.of(KeyedCommit.INSERT, KeyedCommit.UPDATE_POSTIMAGE);
  private static final List<String> LOST = List.of(KeyedCommit.DELETE, KeyedCommit.UPDATE_PREIMAGE);

  private final SparkSession spark;
  private final Map<String, InputChange> changed;
  private final Map<String, Long> bytes = new HashMap<>();
  private final Map<String, InputChange> inputs;
  private LogicalPlan query;
  private Change change = Change.NONE;
  private long bytesBeside;
  private String retraction;

  private ChangePlan(SparkSession spark, List<InputChange> changes) {
    this.spark = spark;
    this.inputs = changes.stream().collect(Collectors.toMap(c -> c.input().key(), Function.identity()));
    this.changed = changes.stream().filter(c -> c.kind() != InputChange.Kind.UNCHANGED)
        .collect(Collectors.toMap(c -> c.input().key(), Function.identity()));
  }

  /**
   * The change of {@code analyzed}, a query that {@link #unsupported} accepts, after
   * {@code changes}, one for each of its inputs. Plans are built, no rows read, but for what each
   * slice by touched keys needs: a small Spark job over the changed rows for the keys and their
   * range, and Delta's file skipping by that range, whose size the cost counts.
   */
  static ChangePlan of(SparkSession spark, LogicalPlan analyzed, List<InputChange> changes) {
    ChangePlan plan = new ChangePlan(spark, changes);
    plan.query = analyzed;
    plan.change = plan.derive(analyzed);
    return plan;
  }

  /**
   * The query over the appended rows alone, every other input empty: for a query that only maps
   * rows, its new rows; for a GROUP BY, the groups of the appended rows.
   */
  static Dataset<Row> overAppended(SparkSession spark, LogicalPlan analyzed, List<InputChange> changes) {
    ChangePlan plan = new ChangePlan(spark, changes);
    return SparkPlans.ofRows(spark, analyzed.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return QueryShape.isDelta(node);
      }

      @Override
      public LogicalPlan apply(LogicalPlan scan) {
        return plan.scanChange(scan).gained().orElseGet(() -> empty(scan));
      }
    }));
  }

  /**
   * Why the change of {@code plan} cannot be derived, if it cannot: an operator with no rule, or a
   * join or window whose change cannot be keyed.
   */
  static Optional<String> unsupported(LogicalPlan plan, Predicate<LogicalPlan> isInput) {
    if (plan.children().isEmpty() || plan instanceof Project || plan instanceof Filter || plan instanceof Union
        || plan instanceof SubqueryAlias || plan instanceof View || plan instanceof Generate || plan instanceof Sort) {
      return children(plan, isInput);
    }
    if (plan instanceof Join join) {
      boolean keyed = equiKeys(join).isPresent();
      if (!keyed && (!linear(join.joinType(), true) && readsInput(join.left(), isInput)
          || !linear(join.joinType(), false) && readsInput(join.right(), isInput))) {
        return Optional.of("it has a " + join.joinType().sql() + " JOIN without an equality between its sides:"
            + " the rows a change of one side touches on the other cannot be found");
      }
      return children(plan, isInput);
    }
    if (plan instanceof Window window) {
      return window.partitionSpec().isEmpty()
          ? Optional.of("it has a window function without PARTITION BY, which every change recomputes whole")
          : children(plan, isInput);
    }
    return Optional.of("it has " + QueryShape.describe(plan) + ", whose change no incremental technique follows");
  }

  private static Optional<String> children(LogicalPlan plan, Predicate<LogicalPlan> isInput) {
    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      Optional<String> below = unsupported(child, isInput);
      if (below.isPresent()) {
        return below;
      }
    }
    return Optional.empty();
  }

  private static boolean readsInput(LogicalPlan plan, Predicate<LogicalPlan> isInput) {
    return plan.exists(node -> node.children().isEmpty() && isInput.test(node));
  }

  /** The rows the query gains, signed +1, with those it loses, signed -1. */
  Dataset<Row> signed() {
    List<Dataset<Row>> parts = new ArrayList<>();
    change.gained().ifPresent(plan -> parts.add(SparkPlans.ofRows(spark, plan).withColumn(SIGN, lit(1))));
    change.lost().ifPresent(plan -> parts.add(SparkPlans.ofRows(spark, plan).withColumn(SIGN, lit(-1))));
    return parts.stream().reduce(Dataset::unionByName)
        .orElseGet(() -> SparkPlans.ofRows(spark, empty(query)).withColumn(SIGN, lit(1)));
  }

  /** The rows the query gains: after appends with no {@link #retraction}, the view's new rows. */
  Dataset<Row> gained() {
    return SparkPlans.ofRows(spark, change.gained().orElseGet(() -> empty(query)));
  }

  /** Why the change can take rows away even when the inputs only appended (an outer join's side, a window), if it can. */
  Optional<String> retraction() {
    return Optional.ofNullable(retraction);
  }

  /** The bytes of the inputs read whole beside the change: the other side of a join, the tables under a touched window. */
  long bytesBeside() {
    return bytesBeside;
  }

  private record Change(Optional<LogicalPlan> gained, Optional<LogicalPlan> lost) {
    static final Change NONE = new Change(Optional.empty(), Optional.empty());

    boolean none() {
      return gained.isEmpty() && lost.isEmpty();
    }

    Change map(Function<LogicalPlan, LogicalPlan> f) {
      return new Change(gained.map(f), lost.map(f));
    }
  }

  private Change derive(LogicalPlan node) {
    if (!readsChanged(node)) {
      return Change.NONE;
    }
    if (QueryShape.isDelta(node)) {
      return scanChange(node);
    }
    if (node instanceof Join join) {
      return join(join);
    }
    if (node instanceof Window window) {
      if (retraction == null) {
        retraction = "a change of a window's partition changes its other rows";
      }
      Change child = derive(window.child());
      List<Expression> keys = CollectionConverters.asJava(window.partitionSpec());
      TouchedKeys touched = touched(child, keys);
      return new Change(Optional.of(window.withNewChildren(Scala.seq(List.of(slice(touched, window.child(), keys))))),
          Optional.of(window.withNewChildren(Scala.seq(List.of(slice(touched, old(window.child()), keys))))));
    }
    if (node instanceof Union union) {
      List<LogicalPlan> children = CollectionConverters.asJava(union.children());
      List<Change> changes = children.stream().map(this::derive).toList();
      return new Change(unionOf(union, children, changes, Change::gained), unionOf(union, children, changes, Change::lost));
    }
    // A row-wise operator: the one child's change, mapped.
    return derive(node.children().head()).map(child -> node.withNewChildren(Scala.seq(List.of(child))));
  }

  private static Optional<LogicalPlan> unionOf(Union union, List<LogicalPlan> children, List<Change> changes,
      Function<Change, Optional<LogicalPlan>> side) {
    if (changes.stream().allMatch(c -> side.apply(c).isEmpty())) {
      return Optional.empty();
    }
    List<LogicalPlan> parts = new ArrayList<>();
    for (int i = 0; i < children.size(); i++) {
      // Unchanged children stay as empty relations, so the union keeps its first child's columns.
      parts.add(side.apply(changes.get(i)).orElse(empty(children.get(i))));
    }
    return Optional.of(union.withNewChildren(Scala.seq(parts)));
  }

  /**
   * A join's change: the left side's change with the right side as the last refresh saw it, then
   * the right side's change with the left side as it is now.
   */
  private Change join(Join join) {
    List<LogicalPlan> gained = new ArrayList<>();
    List<LogicalPlan> lost = new ArrayList<>();
    side(join, true, derive(join.left()), () -> old(join.right()), gained, lost);
    side(join, false, derive(join.right()), join::left, gained, lost);
    return new Change(union(gained), union(lost));
  }

  /** The terms of one side's {@code change} through the join, the other side read as {@code other} gives. */
  private void side(Join join, boolean left, Change change, Supplier<LogicalPlan> other, List<LogicalPlan> gained,
      List<LogicalPlan> lost) {
    if (change.none()) {
      return;
    }
    LogicalPlan fixed = other.get();
    BinaryOperator<LogicalPlan> pair = (rows, with) -> join.withNewChildren(Scala.seq(left ? List.of(rows, with)
        : List.of(with, rows)));
    if (linear(join.joinType(), left)) {
      bytesBeside += bytes(fixed);
      change.gained().ifPresent(rows -> gained.add(pair.apply(rows, fixed)));
      change.lost().ifPresent(rows -> lost.add(pair.apply(rows, fixed)));
      return;
    }
    if (retraction == null) {
      retraction = "a change of the " + (left ? "left" : "right") + " side of a " + join.joinType().sql()
          + " JOIN changes the rows it pairs";
    }
    Keys keys = keys(join);
    List<Expression> own = left ? keys.left() : keys.right();
    TouchedKeys touched = touched(change, own);
    LogicalPlan fixedSlice = slice(touched, fixed, left ? keys.right() : keys.left());
    LogicalPlan side = left ? join.left() : join.right();
    gained.add(pair.apply(slice(touched, side, own), fixedSlice));
    lost.add(pair.apply(slice(touched, old(side), own), fixedSlice));
  }

  private static Optional<LogicalPlan> union(List<LogicalPlan> terms) {
    return switch (terms.size()) {
      case 0 -> Optional.empty();
      case 1 -> Optional.of(terms.get(0));
      default -> Optional.of(new Union(Scala.seq(terms), false, false));
    };
  }

  /** Whether the join's output is the sum of its outputs for each row of that side, the other side fixed. */
  private static boolean linear(JoinType type, boolean left) {
    if (type == Inner$.MODULE$ || type == Cross$.MODULE$) {
      return true;
    }
    return left ? type == LeftOuter$.MODULE$ || type == LeftSemi$.MODULE$ || type == LeftAnti$.MODULE$
        : type == RightOuter$.MODULE$;
  }

  private record Keys(List<Expression> left, List<Expression> right) {}

  private static Optional<Keys> equiKeys(Join join) {
    Option<Tuple8<JoinType, scala.collection.immutable.Seq<Expression>, scala.collection.immutable.Seq<Expression>,
        Option<Expression>, Option<Expression>, LogicalPlan, LogicalPlan, JoinHint>>
        keys = ExtractEquiJoinKeys$.MODULE$.unapply(join);
    return keys.isEmpty() ? Optional.empty()
        : Optional.of(new Keys(CollectionConverters.asJava(keys.get()._2()), CollectionConverters.asJava(keys.get()._3())));
  }

  private static Keys keys(Join join) {
    return equiKeys(join).orElseThrow(() -> new IllegalStateException("a keyless " + join.joinType().sql() + " JOIN"));
  }

  /** The key values the change touches, with their range: one Spark job over the changed rows. */
  private TouchedKeys touched(Change change, List<Expression> keys) {
    List<LogicalPlan> rows = new ArrayList<>();
    change.gained().ifPresent(rows::add);
    change.lost().ifPresent(rows::add);
    return TouchedKeys.of(spark, union(rows).orElseThrow(), keys);
  }

  /**
   * The rows of {@code plan} (as it reads now, or as the last refresh read it) whose {@code keys}
   * the change touched; the bytes Delta reads for them, its files skipped by the keys' range, are
   * counted as read beside the change.
   */
  private LogicalPlan slice(TouchedKeys touched, LogicalPlan plan, List<Expression> keys) {
    LogicalPlan bounded = touched.bounded(plan, keys);
    bytesBeside += DeltaInput.bytesScanned(spark, bounded);
    return touched.slice(bounded, keys);
  }

  /** {@code plan} as the last refresh read it: each changed input at the version it read then. */
  private LogicalPlan old(LogicalPlan plan) {
    return plan.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return QueryShape.isDelta(node) && changed.containsKey(key(node));
      }

      @Override
      public LogicalPlan apply(LogicalPlan scan) {
        InputChange change = changed.get(key(scan));
        Dataset<Row> before = spark.read().format("delta").option("versionAsOf", change.fromVersion()).load(change.input().key());
        return sameColumns(scan, before.queryExecution().analyzed());
      }
    });
  }

  /** The bytes of the Delta tables {@code plan} reads whole, from their checksums. */
  private long bytes(LogicalPlan plan) {
    long[] sum = {0};
    plan.foreach(node -> {
      if (QueryShape.isDelta(node)) {
        sum[0] += bytes.computeIfAbsent(key(node), key -> inputs.get(key).input().bytes());
      }
      return scala.runtime.BoxedUnit.UNIT;
    });
    return sum[0];
  }

  private boolean readsChanged(LogicalPlan plan) {
    return plan.exists(node -> QueryShape.isDelta(node) && changed.containsKey(key(node)));
  }

  private static String key(LogicalPlan scan) {
    return ((TahoeLogFileIndex) ((HadoopFsRelation) ((LogicalRelation) scan).relation()).location()).path().toString();
  }

  /** What a scan of a changed input gained (appended files, the feed's inserts and new values) and lost. */
  private Change scanChange(LogicalPlan scan) {
    InputChange change = changed.get(key(scan));
    if (change == null) {
      return Change.NONE;
    }
    if (change.kind() == InputChange.Kind.APPENDED) {
      Dataset<Row> rows = change.input().log().createDataFrame(change.input().snapshot(), Scala.seq(change.appended()), false,
          Option.empty());
      return new Change(Optional.of(sameColumns(scan, rows.queryExecution().analyzed())), Optional.empty());
    }
    return new Change(Optional.of(fed(scan, change, GAINED)), Optional.of(fed(scan, change, LOST)));
  }

  private LogicalPlan fed(LogicalPlan scan, InputChange change, List<String> types) {
    Dataset<Row> rows = change.changedRows(spark).where(col(KeyedCommit.CHANGE_TYPE).isin(types.toArray()));
    return sameColumns(scan, rows.queryExecution().analyzed());
  }

  private static LogicalPlan empty(LogicalPlan plan) {
    return new LocalRelation(plan.output(), emptyRows(), false, Option.empty());
  }

  private static scala.collection.immutable.List<org.apache.spark.sql.catalyst.InternalRow> emptyRows() {
    return scala.collection.immutable.List$.MODULE$.empty();
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
