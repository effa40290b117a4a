package io.sluice.bench;

import static io.sluice.bench.BenchSupport.pipeline;
import static io.sluice.bench.BenchSupport.rate;
import static io.sluice.bench.BenchSupport.time;

import io.sluice.spec.PipelineSpec;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * Kafka to Delta: a streaming table over {@code read_kafka}, through a real pipeline update,
 * against what a user writes with Spark alone ({@code readStream.format("kafka")} to a Delta
 * {@code writeStream} with a checkpoint), on the same topic in the same run. Each reads the
 * whole topic, then the records added after it, twice, in turns, so that neither always runs
 * on a warmer JVM. "speed" is Sluice's rate over Spark's: above 1, Sluice was faster.
 */
public final class KafkaBenchmark {
  private static final String COLUMNS = "CAST(key AS STRING) AS order_id, CAST(value AS STRING) AS json, partition, offset";
  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;
  private final String servers;
  private final JobCounter jobs;
  private final List<String> report = new ArrayList<>();

  public KafkaBenchmark(SparkSession spark, Path root, PrintStream out, String servers) {
    this.spark = spark;
    this.root = root;
    this.out = out;
    this.servers = servers;
    this.jobs = JobCounter.on(spark);
  }

  public void run(long records) {
    String topic = "bench_orders_" + UUID.randomUUID().toString().substring(0, 8);
    createTopic(topic, 2);
    double produced = time(() -> produce(topic, 0, records));
    out.printf(Locale.ROOT, "topic %s: %d records written by Spark's Kafka writer in %.1f s%n", topic, records, produced);
    report.add(String.format(Locale.ROOT, "%-5s %-12s %10s %16s %16s %9s %10s %11s",
        "round", "read", "records", "spark s", "sluice s", "speed", "spark jobs", "sluice jobs"));
    long added = Math.max(1, records / 10);
    long next = records;
    for (int round = 1; round <= 2; round++) {
      String database = "bench_kafka_" + round;
      PipelineSpec spec = pipeline(spark, root, "kafka" + round, database, """
          CREATE STREAMING TABLE orders AS
          SELECT %s FROM STREAM read_kafka(bootstrapServers => '%s', subscribe => '%s', startingOffsets => 'earliest');
          """.formatted(COLUMNS, servers, topic));
      Path checkpoint = root.resolve("spark-checkpoint-" + round);
      measure(round, "whole topic", next, database, spec, checkpoint, topic);
      produce(topic, next, added);
      next += added;
      measure(round, "10% more", added, database, spec, checkpoint, topic);
      expectSameRows(database);
    }
    report.forEach(out::println);
  }

  private void measure(int round, String label, long records, String database, PipelineSpec spec, Path checkpoint,
      String topic) {
    double[] plain = new double[1];
    double[] sluice = new double[1];
    long[] plainJobs = new long[1];
    long[] sluiceJobs = new long[1];
    Runnable sparkAlone = () -> plainJobs[0] = jobs.count(() -> plain[0] = time(() -> sparkAlone(database, checkpoint, topic)));
    Runnable withSluice = () -> sluiceJobs[0] = jobs.count(() -> sluice[0] = seconds(BenchSupport.update(spark, spec)));
    if (round % 2 == 1) {
      sparkAlone.run();
      withSluice.run();
    } else {
      withSluice.run();
      sparkAlone.run();
    }
    report.add(String.format(Locale.ROOT, "%-5d %-12s %10d %16s %16s %8.2fx %10d %11d", round, label, records,
        rate(plain[0], records), rate(sluice[0], records), plain[0] / sluice[0], plainJobs[0], sluiceJobs[0]));
  }

  /** The user's own stream: Kafka's records appended to a Delta table, progress in a checkpoint. */
  private void sparkAlone(String database, Path checkpoint, String topic) {
    try {
      StreamingQuery query = spark.readStream().format("kafka")
          .option("kafka.bootstrap.servers", servers).option("subscribe", topic).option("startingOffsets", "earliest")
          .load().selectExpr(COLUMNS.split(", "))
          .writeStream().format("delta").option("checkpointLocation", checkpoint.toString())
          .trigger(Trigger.AvailableNow())
          .toTable(database + ".spark_orders");
      query.awaitTermination();
    } catch (Exception e) {
      throw new IllegalStateException("Spark's own Kafka stream failed", e);
    }
  }

  private void expectSameRows(String database) {
    long sluice = BenchSupport.count(spark, database + ".orders");
    long plain = BenchSupport.count(spark, database + ".spark_orders");
    long both = BenchSupport.count(spark, "(SELECT partition, offset FROM " + database + ".orders INTERSECT SELECT partition, offset FROM "
        + database + ".spark_orders)");
    BenchSupport.expect(out, database + ": records read by both, each once", both, plain);
    BenchSupport.expect(out, database + ": records in the streaming table", sluice, plain);
  }

  private static double seconds(UpdateResult result) {
    FlowOutcome flow = result.flows().get(0);
    return flow.duration().toMillis() / 1000.0;
  }

  /** {@code count} order records keyed from {@code first} on, about 120 bytes of JSON each. */
  private void produce(String topic, long first, long count) {
    Dataset<Row> rows = spark.range(first, first + count).selectExpr(
        "CAST(id AS STRING) AS key",
        "to_json(named_struct('order_id', id, 'customer', concat('c', pmod(hash(id), 100000)),"
            + " 'amount', pmod(hash(id, 'a'), 100000) / 100.0, 'status', 'placed',"
            + " 'event_time', timestamp'2026-12-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 86400))) AS value");
    rows.write().format("kafka").option("kafka.bootstrap.servers", servers).option("topic", topic).save();
  }

  private void createTopic(String topic, int partitions) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", servers))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create topic " + topic + " on " + servers
          + " (start a broker with bin/sluice-kafka start, or give --bootstrap-servers)", e);
    }
  }
}
