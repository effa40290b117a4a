package io.sluice.kinds.mv;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.Identifiers;
import io.sluice.common.SparkPlans;
import io.sluice.delta.Scala;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StringType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link Technique#PARTITION_OVERWRITE}: a view partitioned by columns of its GROUP BY that are
 * partition columns of its one input, unchanged. A change of the input touches the view's
 * partitions of the input partitions its commits added or removed files in, which its log lists
 * without reading a row and whatever the change was (no change data feed needed): those are
 * recomputed from those input partitions alone, Delta reading no other, and replace the view's.
 */
final class ChangedPartitions {
  private final LogicalPlan analyzed;
  private final GroupKeys keys;
  private final String input;
  private final List<DataType> types;
  private final List<InternalRow> values;
  private long bytesRead;

  private ChangedPartitions(LogicalPlan analyzed, GroupKeys keys, String input, List<DataType> types, List<InternalRow> values) {
    this.analyzed = analyzed;
    this.keys = keys;
    this.input = input;
    this.types = types;
    this.values = values;
  }

  /** The partitions, or why the view's cannot be told from the input's. */
  record Listed(Optional<ChangedPartitions> partitions, Optional<IncrementalizationIssue> whyNot) {
    static Listed not(String type, String reason) {
      return new Listed(Optional.empty(), Optional.of(new IncrementalizationIssue(type, reason)));
    }
  }

  /**
   * The view's partitions that {@code change} touches; {@code analyzed} is the view's query,
   * {@code keys} the view's partition columns and the input columns they are. Plans the
   * recomputation, whose scan Delta prunes to the changed partitions' files, to count their bytes.
   */
  static Listed of(SparkSession spark, LogicalPlan analyzed, GroupKeys keys, InputChange change) {
    String timeZone = spark.sessionState().conf().sessionLocalTimeZone();
    if (change.unlisted().isPresent()) {
      return new Listed(Optional.empty(), change.unlisted());
    }
    List<String> partitionedBy = CollectionConverters.asJava(change.input().snapshot().metadata().partitionColumns());
    List<DataType> types = new ArrayList<>();
    for (String column : keys.inputColumns()) {
      if (!partitionedBy.contains(column)) {
        return Listed.not(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, change.input().name() + " is not partitioned by "
            + column + ": which of its rows a partition of the view holds cannot be told from its log");
      }
      DataType type = change.input().snapshot().metadata().schema().apply(column).dataType();
      if (!(type instanceof IntegralType || type instanceof StringType || type instanceof DateType
          || type instanceof BooleanType || type instanceof DecimalType)) {
        return Listed.not(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, change.input().name() + " is partitioned by "
            + column + ", a " + type.sql() + ": only whole numbers, strings, dates, booleans and decimals are matched");
      }
      types.add(type);
    }
    List<InternalRow> values = new ArrayList<>();
    for (Map<String, String> partition : change.partitions()) {
      Object[] row = new Object[types.size()];
      for (int i = 0; i < types.size(); i++) {
        String value = partition.get(keys.inputColumns().get(i));
        // The log writes a partition's values as strings, cast back as Delta casts them.
        row[i] = value == null ? null
            : new Cast(Literal.create(value, DataTypes.StringType), types.get(i), Option.apply(timeZone)).eval(null);
      }
      values.add(new GenericInternalRow(row));
    }
    ChangedPartitions partitions = new ChangedPartitions(analyzed, keys, change.input().key(), types, values);
    partitions.bytesRead = DeltaInput.bytesScanned(spark, partitions.recomputed());
    return new Listed(Optional.of(partitions), Optional.empty());
  }

  /** The view's query over the input's changed partitions alone. */
  private LogicalPlan recomputed() {
    return TouchedGroups.withInput(analyzed, input, scan -> new Filter(changed(scan), scan));
  }

  /** The bytes Delta reads for the changed partitions, its other files pruned. */
  long bytesRead() {
    return bytesRead;
  }

  /** Recomputes the changed partitions and replaces the view's rows of those partitions by them. */
  void refresh(SparkSession spark, RefreshCommit commit) {
    List<Attribute> columns = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      columns.add(new AttributeReference(keys.viewColumns().get(i), types.get(i), true, Metadata.empty(),
          NamedExpression$.MODULE$.newExprId(), Scala.seq(List.of())));
    }
    Dataset<Row> viewKeys = SparkPlans.ofRows(spark, new LocalRelation(Scala.seq(columns), Scala.seq(values), false, Option.empty()));
    commit.replace(SparkPlans.ofRows(spark, recomputed()), viewKeys, keys.viewColumns(), viewScope());
  }

  /** The view's rows (aliased {@code t}) in a changed partition: Delta reads the view's files of those partitions alone. */
  private Column viewScope() {
    Column any = lit(false);
    for (InternalRow partition : values) {
      Column all = lit(true);
      for (int i = 0; i < types.size(); i++) {
        Object value = CatalystTypeConverters.convertToScala(partition.get(i, types.get(i)), types.get(i));
        all = all.and(col("t." + Identifiers.quote(keys.viewColumns().get(i))).eqNullSafe(lit(value).cast(types.get(i))));
      }
      any = any.or(all);
    }
    return any;
  }

  /** The rows of {@code scan} (the input) in a changed partition, as literal conditions Delta prunes files by. */
  private Expression changed(LogicalPlan scan) {
    List<Attribute> columns = new ArrayList<>();
    for (String column : keys.inputColumns()) {
      columns.add(CollectionConverters.asJava(scan.output()).stream().filter(a -> a.name().equals(column)).findFirst().orElseThrow());
    }
    if (columns.size() == 1) {
      // One column: one IN of the values, and IS NULL for the NULL partition.
      List<Expression> listed = new ArrayList<>();
      boolean nulls = false;
      for (InternalRow partition : values) {
        if (partition.isNullAt(0)) {
          nulls = true;
        } else {
          listed.add(new Literal(partition.get(0, types.get(0)), types.get(0)));
        }
      }
      Expression in = listed.isEmpty() ? Literal.FalseLiteral() : new In(columns.get(0), Scala.seq(listed));
      return nulls ? new Or(in, new IsNull(columns.get(0))) : in;
    }
    Expression any = Literal.FalseLiteral();
    for (InternalRow partition : values) {
      Expression all = Literal.TrueLiteral();
      for (int i = 0; i < types.size(); i++) {
        all = new And(all, new EqualNullSafe(columns.get(i), new Literal(partition.get(i, types.get(i)), types.get(i))));
      }
      any = new Or(any, all);
    }
    return any;
  }
}
