package io.sluice.kinds.sink;

import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import io.sluice.execution.BatchLog;
import io.sluice.execution.BatchSink;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowFailedException;
import io.sluice.execution.FlowRun;
import io.sluice.execution.TableCreation;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ResolvedGraph;
import io.sluice.graph.SinkDestination;
import io.sluice.kafka.KafkaBrokers;
import io.sluice.kafka.TestTopics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * How a flow's batches reach its sink (SEMANTICS §9): the one place the kind of sink is
 * chosen. A Delta sink commits each batch once, as managed tables do, so it is exactly-once;
 * Kafka, other formats and foreach-batch handlers get a batch again when it is retried after a
 * crash (at-least-once), with the same batch id and rows.
 */
public final class SinkWrites {

  private SinkWrites() {}

  /**
   * Checks that the brokers of every Kafka sink answer, before an update writes anything:
   * Kafka's producer would otherwise wait a minute on each batch of a flow into it.
   */
  public static void checkReachable(SparkSession spark, ResolvedGraph graph) {
    if (TestTopics.folder(spark).isPresent()) {
      return; // a test's Kafka sinks write to its topics' tables
    }
    for (DatasetDefinition sink : graph.graph().datasets().values()) {
      sink.sink().filter(SinkDestination::isKafka).ifPresent(kafka ->
          KafkaBrokers.check(kafka.options(), List.of(), "kafka sink '" + sink.name().name() + "'", sink.origin()));
    }
  }

  /** The writer of one flow's batches into its sink. */
  public static BatchSink open(FlowRun run, BatchLog log) {
    DatasetDefinition sink = run.target();
    SinkDestination destination = sink.sink().orElseThrow();
    if (destination instanceof SinkDestination.ForeachBatch foreach) {
      return handler(sink, foreach.handler());
    }
    SinkDestination.DataSource source = (SinkDestination.DataSource) destination;
    Optional<String> testTopics = TestTopics.folder(run.spark());
    if (source.isKafka() && testTopics.isPresent()) {
      return testTopic(source, testTopics.get());
    }
    return switch (source.format()) {
      case SinkDestination.DataSource.DELTA -> delta(run, source, log);
      default -> append(source);
    };
  }

  /** Each batch committed once to a Delta table, by path or by name (created on first use). */
  private static BatchSink delta(FlowRun run, SinkDestination.DataSource source, BatchLog log) {
    SparkSession spark = run.spark();
    Optional<String> path = source.option(SinkDestination.DataSource.PATH);
    DeltaTarget target;
    String table;
    if (path.isPresent()) {
      target = DeltaTarget.location(path.get());
      table = null;
    } else {
      DatasetName name = DatasetName.of(SparkPlans.parseName(spark, source.option(SinkDestination.DataSource.TABLE_NAME).orElseThrow()),
          run.graph().defaultCatalog(), run.graph().defaultDatabase());
      TableCreation.create(spark, name, run.target().origin(),
          "CREATE TABLE IF NOT EXISTS " + name.quoted() + " (" + run.targetSchema().toDDL() + ") USING delta");
      target = DeltaTarget.table(name);
      table = name.quoted();
    }
    return (rows, batchId, count) -> {
      SparkSession session = rows.sparkSession();
      log.begin(session, batchId, List.of(target)).commit(session, target,
          () -> {
            if (table == null) {
              DeltaWrites.appendAt(rows, path.get());
            } else {
              DeltaWrites.append(rows, table);
            }
          });
      return BatchSink.Written.all(count);
    };
  }

  /** In a test: each batch appended to the table of its topic (the sink's, or each row's). */
  private static BatchSink testTopic(SinkDestination.DataSource source, String folder) {
    Optional<String> topic = source.option("topic");
    return (rows, batchId, count) -> {
      SparkSession session = rows.sparkSession();
      if (topic.isPresent()) {
        TestTopics.append(session, folder, topic.get(), rows);
      } else {
        for (Row name : rows.select("topic").distinct().collectAsList()) {
          TestTopics.append(session, folder, name.getString(0), rows.where(rows.col("topic").equalTo(name.getString(0))));
        }
      }
      return BatchSink.Written.all(count);
    };
  }

  /** Each batch written by Spark's batch writer of the format, with the sink's options. */
  private static BatchSink append(SinkDestination.DataSource source) {
    Map<String, String> options = source.options();
    return (rows, batchId, count) -> {
      try {
        rows.write().format(source.format()).options(options).mode("append").save();
      } catch (Exception e) {
        throw SparkErrors.unchecked(e);
      }
      return BatchSink.Written.all(count);
    };
  }

  private static BatchSink handler(DatasetDefinition sink, VoidFunction2<Dataset<Row>, Long> handler) {
    return (rows, batchId, count) -> {
      try {
        handler.call(rows, batchId);
      } catch (Exception e) {
        throw new FlowFailedException("foreach-batch sink '" + sink.name().name() + "' failed on batch " + batchId
            + ": " + SparkErrors.firstLine(e), e);
      }
      return BatchSink.Written.all(count);
    };
  }
}
