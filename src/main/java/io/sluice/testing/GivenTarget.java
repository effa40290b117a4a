package io.sluice.testing;

import io.sluice.kafka.TestTopics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** Where the rows a test gives one source in one update go, and how they are written there. */
sealed interface GivenTarget {
  /** Writes {@code rows} for the test whose copy of the pipeline is in {@code copy}. */
  void write(SparkSession spark, Path copy, List<Map<String, Object>> rows);

  /** A file of a file source, relative to the pipeline's folder. */
  record File(FileSource source, Path file) implements GivenTarget {
    @Override
    public void write(SparkSession spark, Path copy, List<Map<String, Object>> rows) {
      SourceFiles.write(spark, source, copy.resolve(file), rows);
    }
  }

  /** A table outside the pipeline, made for tests ({@link SourceTables}). */
  record Table(String table) implements GivenTarget {
    @Override
    public void write(SparkSession spark, Path copy, List<Map<String, Object>> rows) {
      SourceTables.append(spark, table, rows);
    }
  }

  /** A Kafka topic the pipeline reads: in a test, a table of Kafka's records in the test's copy ({@link TestTopics}). */
  record Topic(String topic) implements GivenTarget {
    /** What a test's record may give; the topic and its offset are Kafka's. */
    static final StructType FIELDS = StructType.fromDDL("key STRING, value STRING, partition INT, timestamp TIMESTAMP");

    @Override
    public void write(SparkSession spark, Path copy, List<Map<String, Object>> rows) {
      List<String> lines = SourceFiles.jsonLines(rows).lines().toList();
      TestTopics.append(spark, ScratchPipeline.topics(copy), topic,
          spark.read().schema(FIELDS).option("mode", "FAILFAST").json(spark.createDataset(lines, Encoders.STRING())));
    }
  }
}
