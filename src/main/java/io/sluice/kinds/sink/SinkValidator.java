package io.sluice.kinds.sink;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.Identifiers;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.GraphException;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.SinkDestination;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.DataSource$;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The checks of a sink and of the flows into it (SEMANTICS §9.1): a format Spark knows, the
 * options it needs, and for Kafka the columns its writer takes.
 */
public final class SinkValidator {
  static final String BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
  private static final StructType KAFKA_HEADER = new StructType()
      .add("key", DataTypes.StringType).add("value", DataTypes.BinaryType);

  private SinkValidator() {}

  /** A sink's own definition: its format and options. */
  public static void validateSink(SparkSession spark, DatasetDefinition sink) {
    if (!(sink.sink().orElseThrow() instanceof SinkDestination.DataSource source)) {
      return;
    }
    Origin origin = sink.origin();
    String format = source.format();
    if (format.equals(SinkDestination.DataSource.DELTA)) {
      if (source.option(SinkDestination.DataSource.PATH).isPresent() == source.option(SinkDestination.DataSource.TABLE_NAME).isPresent()) {
        throw new GraphException(ErrorClass.SINK_OPTIONS, origin,
            "delta sink '" + sink.name() + "' needs one of the options 'path' and 'tableName'");
      }
      return;
    }
    if (format.equals(SinkDestination.DataSource.KAFKA)) {
      if (source.option(BOOTSTRAP_SERVERS).isEmpty()) {
        throw new GraphException(ErrorClass.SINK_OPTIONS, origin,
            "kafka sink '" + sink.name() + "' needs the option '" + BOOTSTRAP_SERVERS + "' (host:port of the brokers)");
      }
      return;
    }
    try {
      DataSource$.MODULE$.lookupDataSource(format, SQLConf.get());
    } catch (Exception e) {
      throw new GraphException(ErrorClass.SINK_UNKNOWN_FORMAT, origin, "sink '" + sink.name() + "' has format '"
          + format + "', which is no Spark data source on the class path; use delta, kafka, parquet, json, csv, ...", e);
    }
  }

  /** A flow into a sink: it streams, and a Kafka sink can write its columns. */
  public static void validateFlow(ResolvedFlow flow, DatasetDefinition sink) {
    Origin origin = flow.definition().origin();
    if (!flow.streaming()) {
      throw new GraphException(ErrorClass.FLOW_NOT_STREAMING, origin, "flow '" + flow.name() + "' into sink '"
          + sink.name() + "' reads no stream; read its source with STREAM(...)");
    }
    SinkDestination destination = sink.sink().orElseThrow();
    if (destination.isKafka()) {
      validateKafkaColumns(flow, sink, destination);
    }
  }

  private static void validateKafkaColumns(ResolvedFlow flow, DatasetDefinition sink, SinkDestination kafka) {
    StructType schema = flow.schema();
    if (!Identifiers.hasField(schema, "value")) {
      throw kafkaColumns(flow, sink, "has no 'value' column (columns: " + String.join(", ", schema.fieldNames())
          + "); select one, e.g. to_json(struct(*)) AS value");
    }
    if (kafka.option("topic").isEmpty() && !Identifiers.hasField(schema, "topic")) {
      throw kafkaColumns(flow, sink, "names no topic: give the sink the option 'topic', or the rows a 'topic' column");
    }
    requireType(flow, sink, "value", "STRING or BINARY", DataTypes.StringType, DataTypes.BinaryType);
    requireType(flow, sink, "key", "STRING or BINARY", DataTypes.StringType, DataTypes.BinaryType);
    requireType(flow, sink, "topic", "STRING", DataTypes.StringType);
    requireType(flow, sink, "partition", "INT", DataTypes.IntegerType);
    requireType(flow, sink, "headers", "ARRAY<STRUCT<key: STRING, value: BINARY>>", new ArrayType(KAFKA_HEADER, true),
        new ArrayType(KAFKA_HEADER, false));
  }

  private static void requireType(
      ResolvedFlow flow, DatasetDefinition sink, String column, String expected, DataType... allowed) {
    Optional<StructField> field = Identifiers.field(flow.schema(), column);
    if (field.isEmpty()) {
      return;
    }
    DataType type = field.get().dataType();
    for (DataType ok : allowed) {
      if (DataType.equalsIgnoreNullability(type, ok)) {
        return;
      }
    }
    throw kafkaColumns(flow, sink, "has column '" + column + "' of type " + type.sql() + "; Kafka takes " + expected);
  }

  private static GraphException kafkaColumns(ResolvedFlow flow, DatasetDefinition sink, String problem) {
    return new GraphException(ErrorClass.KAFKA_SINK_COLUMNS, flow.definition().origin(),
        "flow '" + flow.name() + "' into kafka sink '" + sink.name() + "' " + problem);
  }
}
