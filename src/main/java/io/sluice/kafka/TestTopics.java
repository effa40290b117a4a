package io.sluice.kafka;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Kafka topics as a pipeline's tests have them: no broker, but a Delta table per topic with
 * Kafka's columns, in a folder the test names in the session ({@link #FOLDER_CONF}). While it is
 * set, {@code read_kafka} streams a topic's table, and a Kafka sink appends to its topic's table;
 * outside tests it is never set.
 */
public final class TestTopics {
  /** The session setting naming the folder of the test topics; unset outside tests. */
  public static final String FOLDER_CONF = "spark.sluice.test.kafkaTopics";
  /** The columns of Spark's Kafka source (without headers). */
  public static final StructType SCHEMA = new StructType()
      .add("key", DataTypes.BinaryType)
      .add("value", DataTypes.BinaryType)
      .add("topic", DataTypes.StringType)
      .add("partition", DataTypes.IntegerType)
      .add("offset", DataTypes.LongType)
      .add("timestamp", DataTypes.TimestampType)
      .add("timestampType", DataTypes.IntegerType);

  private TestTopics() {}

  /** The folder of the test topics, when the session runs a test. */
  public static Optional<String> folder(SparkSession spark) {
    return Optional.ofNullable(spark.conf().get(FOLDER_CONF, null)).filter(f -> !f.isEmpty());
  }

  /** Where {@code topic}'s table is in {@code folder}. */
  public static String location(String folder, String topic) {
    return folder + "/" + topic;
  }

  /** The records of {@code topics} as a stream, or a batch: their tables, made empty when missing. */
  public static Dataset<Row> read(SparkSession spark, String folder, List<String> topics, boolean streaming) {
    Dataset<Row> all = null;
    for (String topic : topics) {
      String location = location(folder, topic);
      create(spark, location);
      Dataset<Row> records = streaming ? spark.readStream().format("delta").load(location) : spark.read().format("delta").load(location);
      all = all == null ? records : all.unionByName(records);
    }
    return all;
  }

  /**
   * Appends {@code records} (a {@code value}, and maybe a {@code key}, {@code partition} and
   * {@code timestamp}) to {@code topic}'s table, as Kafka would store them: offsets counting on
   * from the topic's last, the time of the write when none is given.
   */
  public static void append(SparkSession spark, String folder, String topic, Dataset<Row> records) {
    String location = location(folder, topic);
    create(spark, location);
    long offset = spark.read().format("delta").load(location).count();
    List<String> columns = List.of(records.columns());
    Column key = columns.contains("key") ? records.col("key").cast(DataTypes.BinaryType) : functions.lit(null).cast(DataTypes.BinaryType);
    Column partition = columns.contains("partition") ? functions.coalesce(records.col("partition").cast(DataTypes.IntegerType), functions.lit(0))
        : functions.lit(0);
    Column timestamp = columns.contains("timestamp")
        ? functions.coalesce(records.col("timestamp").cast(DataTypes.TimestampType), functions.current_timestamp())
        : functions.current_timestamp();
    records.select(key.as("key"), records.col("value").cast(DataTypes.BinaryType).as("value"), functions.lit(topic).as("topic"),
            partition.as("partition"),
            functions.row_number().over(Window.orderBy(functions.monotonically_increasing_id())).plus(offset - 1).cast(DataTypes.LongType).as("offset"),
            timestamp.as("timestamp"), functions.lit(0).as("timestampType"))
        .write().format("delta").mode("append").save(location);
  }

  private static void create(SparkSession spark, String location) {
    if (!org.apache.spark.sql.delta.DeltaLog.forTable(spark, location).tableExists()) {
      spark.createDataFrame(List.of(), SCHEMA).write().format("delta").mode("append").save(location);
    }
  }
}
