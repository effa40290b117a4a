package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lag;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;
import static org.apache.spark.sql.functions.when;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.execution.ColumnNames;
import io.sluice.expectations.BatchRequirement;
import io.sluice.graph.AutoCdcColumns;
import io.sluice.graph.FlowMode;
import io.sluice.graph.ResolvedFlow;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Change events in the shape the AUTO CDC state store keeps them: the keys, the sequence,
 * the operation (upsert, delete or truncate) and the kept values as one struct.
 */
final class CdcEvents {
  static final String SEQ = "__sluice_seq";
  static final String OP = "__sluice_op";
  static final String VALUES = "__sluice_values";
  static final String RECORDED_AT = "__sluice_recorded_at";
  /** Set by {@link #dedupeNotingRivals} on each kept event whose pair had rival upserts. */
  static final String RIVALLED = "__sluice_rivalled";
  /**
   * Set by {@link #dedupeNotingRivals} on each kept event: true when the store does not hold it
   * (the same key, sequence, operation and values), so the batch must append it. Read without the
   * stored values, an event of the batch wins every {@link #TIED} pair: only where none is tied.
   */
  static final String NOT_STORED = "__sluice_not_stored";
  /**
   * Set by {@link #dedupeNotingRivals} on each kept event whose key and sequence have both a stored
   * event and one of the batch: which one is kept, and whether the batch's is new, depends on their
   * values, when the store's were not read.
   */
  static final String TIED = "__sluice_tied";
  private static final String JSON = "__sluice_json";
  private static final String PREVIOUS = "__sluice_previous";
  static final String UPSERT = "U";
  static final String DELETE = "D";
  static final String TRUNCATE = "T";

  private final ResolvedFlow flow;
  private final FlowMode.AutoCdc mode;
  private final AutoCdcColumns columns;

  CdcEvents(ResolvedFlow flow, FlowMode.AutoCdc mode) {
    this.flow = flow;
    this.mode = mode;
    this.columns = AutoCdcColumns.of(flow);
  }

  FlowMode.AutoCdc mode() {
    return mode;
  }

  AutoCdcColumns columns() {
    return columns;
  }

  List<String> keys() {
    return columns.keys();
  }

  /**
   * Whether a key's last event alone decides its row (SCD type 1 without IGNORE NULL UPDATES):
   * then a batch reads only the stored events' keys, sequences and operations, not their values,
   * unless some of its events are {@link #TIED} with stored ones.
   */
  boolean lastEventDecides() {
    return !mode.scdType().keepsHistory() && columns.ignoreNull().isEmpty();
  }

  /** The events of a batch of source rows, which meet {@link #requirements}. */
  Dataset<Row> of(Dataset<Row> rows) {
    Column op = operation();
    List<Column> select = new ArrayList<>();
    for (String key : keys()) {
      select.add(when(op.equalTo(lit(TRUNCATE)), lit(null)).otherwise(col(key)).as(key));
    }
    select.add(mode.sequence().as(SEQ));
    select.add(op.as(OP));
    select.add(struct(ColumnNames.cols(columns.values())).as(VALUES));
    return rows.select(select.toArray(Column[]::new));
  }

  private Column operation() {
    Column op = lit(UPSERT);
    if (mode.deleteWhen().isPresent()) {
      op = when(expr(mode.deleteWhen().get()).eqNullSafe(lit(true)), lit(DELETE)).otherwise(op);
    }
    if (mode.truncateWhen().isPresent()) {
      op = when(expr(mode.truncateWhen().get()).eqNullSafe(lit(true)), lit(TRUNCATE)).otherwise(op);
    }
    return op;
  }

  /**
   * What every source row must have: a whole sequence, and a key unless it is a truncate.
   * A row without either fails the flow, naming the row, and nothing of the batch is applied.
   */
  List<BatchRequirement> requirements() {
    Column nullKey = lit(false);
    for (String key : keys()) {
      nullKey = nullKey.or(col(key).isNull());
    }
    // A NULL field of a STRUCT sequence leaves the order as undecided as a NULL sequence (§4.3).
    Column nullSequence = mode.sequence().isNull();
    if (columns.sequenceType() instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        nullSequence = nullSequence.or(mode.sequence().getField(field.name()).isNull());
      }
    }
    String name = "AUTO CDC flow '" + flow.name() + "'";
    String what = columns.sequenceType() instanceof StructType ? " is NULL or has a NULL field" : " is NULL";
    return List.of(
        new BatchRequirement(not(nullSequence), row -> new SluiceException(ErrorClass.AUTO_CDC_NULL_SEQUENCE,
            flow.definition().origin(), name + ": SEQUENCE BY " + mode.sequence() + what + " for row " + row
                + "; nothing of the batch was applied")),
        new BatchRequirement(not(nullKey.and(operation().notEqual(lit(TRUNCATE)))), row -> new SluiceException(
            ErrorClass.AUTO_CDC_NULL_KEY, flow.definition().origin(), name + ": a key of KEYS ("
                + String.join(", ", keys()) + ") is NULL in row " + row + "; nothing of the batch was applied")));
  }

  /**
   * One event per key and sequence (SEMANTICS §4.3): a truncate wins, then a delete; of
   * different upserts, the one whose values sort last as JSON, so every order of arrival
   * keeps the same one. The window is partitioned by key alone, as the replay's are, so
   * Spark shuffles the events once.
   */
  Dataset<Row> dedupe(Dataset<Row> events) {
    return firstOfEachSequence(inOrder(events.withColumn(JSON, to_json(col(VALUES))))).drop(JSON);
  }

  /**
   * The {@link #dedupe}d events of {@code stored} and {@code batch} together, each saying in
   * {@link #RIVALLED} whether its key and sequence carried different upserts and the batch
   * brought one of its events (the pairs to warn about), and in {@link #NOT_STORED} whether it
   * came from the batch alone: of two equal events the stored one is kept; and in {@link #TIED}
   * whether a stored event and one of the batch share its key and sequence. Found in the same
   * pass, without a join against the store.
   */
  Dataset<Row> dedupeNotingRivals(Dataset<Row> stored, Dataset<Row> batch) {
    Dataset<Row> events = stored.withColumn(NOT_STORED, lit(false))
        .unionByName(batch.withColumn(NOT_STORED, lit(true)), true)
        .withColumn(JSON, to_json(col(VALUES)));
    List<Column> pair = new ArrayList<>(List.of(ColumnNames.cols(keys())));
    pair.add(col(SEQ));
    WindowSpec samePair = Window.partitionBy(pair.toArray(Column[]::new));
    Column upsert = when(col(OP).equalTo(lit(UPSERT)), col(JSON));
    Column rivalled = max(col(NOT_STORED)).over(samePair)
        .and(not(max(upsert).over(samePair).eqNullSafe(min(upsert).over(samePair))));
    Column tied = max(col(NOT_STORED)).over(samePair).and(max(not(col(NOT_STORED))).over(samePair));
    // After the ordering window, whose sort the pair's window takes as it is.
    return firstOfEachSequence(inOrder(events, col(NOT_STORED).asc()).withColumn(RIVALLED, rivalled).withColumn(TIED, tied))
        .drop(JSON);
  }

  /**
   * The events in the order that decides between those of one key and sequence, each with the
   * sequence before it; {@code tieBreak} orders events that are otherwise equal.
   */
  private Dataset<Row> inOrder(Dataset<Row> events, Column... tieBreak) {
    Column rank = when(col(OP).equalTo(lit(TRUNCATE)), lit(3)).when(col(OP).equalTo(lit(DELETE)), lit(2)).otherwise(lit(1));
    List<Column> order = new ArrayList<>(List.of(col(SEQ), rank.desc(), col(JSON).desc()));
    order.addAll(List.of(tieBreak));
    WindowSpec inOrder = Window.partitionBy(ColumnNames.cols(keys())).orderBy(order.toArray(Column[]::new));
    return events.withColumn(PREVIOUS, lag(col(SEQ), 1).over(inOrder));
  }

  private static Dataset<Row> firstOfEachSequence(Dataset<Row> ordered) {
    return ordered.where(col(PREVIOUS).isNull().or(not(col(PREVIOUS).eqNullSafe(col(SEQ))))).drop(PREVIOUS);
  }

  /** The state store's columns: the events' plus when each was recorded. */
  StructType storeSchema() {
    List<StructField> fields = new ArrayList<>();
    StructType target = columns.targetSchema();
    for (String key : keys()) {
      fields.add(target.apply(key));
    }
    fields.add(new StructField(SEQ, columns.sequenceType(), true, Metadata.empty()));
    fields.add(new StructField(OP, DataTypes.StringType, false, Metadata.empty()));
    List<StructField> values = new ArrayList<>();
    for (String value : columns.values()) {
      values.add(target.apply(value));
    }
    fields.add(new StructField(VALUES, new StructType(values.toArray(StructField[]::new)), true, Metadata.empty()));
    fields.add(new StructField(RECORDED_AT, DataTypes.TimestampType, true, Metadata.empty()));
    return new StructType(fields.toArray(StructField[]::new));
  }
}
