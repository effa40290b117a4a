package io.sluice.execution;

import io.sluice.delta.FileSkipping;
import io.sluice.graph.DatasetName;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.VersionChecksum;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/** A Delta table a flow commits to: a catalog table, or hidden state kept by path. */
public final class DeltaTarget {
  private final String key;
  private final Function<SparkSession, Tuple2<DeltaLog, Snapshot>> latest;
  private final Function<DataFrameReader, Dataset<Row>> load;

  private DeltaTarget(String key, Function<SparkSession, Tuple2<DeltaLog, Snapshot>> latest,
      Function<DataFrameReader, Dataset<Row>> load) {
    this.key = key;
    this.latest = latest;
    this.load = load;
  }

  public static DeltaTarget table(DatasetName name) {
    TableIdentifier identifier = new TableIdentifier(name.name(), Option.apply(name.database()), Option.apply(name.catalog()));
    return new DeltaTarget(name.key(), spark -> DeltaLog.forTableWithSnapshot(spark, identifier),
        reader -> reader.table(name.quoted()));
  }

  /** A table by location: a local path or a URI ({@code s3a://...}); none there yet is version -1. */
  public static DeltaTarget location(String location) {
    return new DeltaTarget(location, spark -> DeltaLog.forTableWithSnapshot(spark, location),
        reader -> reader.format("delta").load(location));
  }

  /** What names the table in a {@link BatchLog}. */
  String key() {
    return key;
  }

  DeltaLog log(SparkSession spark) {
    return latest.apply(spark)._1();
  }

  /** The table's Delta log and its latest snapshot. */
  public Tuple2<DeltaLog, Snapshot> latest(SparkSession spark) {
    return latest.apply(spark);
  }

  /** The table's current Delta version. */
  public long version(SparkSession spark) {
    return latest.apply(spark)._2().version();
  }

  /**
   * Whether the table holds no data file at its current version: read from the version's
   * checksum file, which Delta writes with each commit, without replaying the log (a table
   * without one is counted the slow way).
   */
  public boolean isEmpty(SparkSession spark) {
    Snapshot snapshot = latest.apply(spark)._2();
    Option<VersionChecksum> checksum = snapshot.checksumOpt();
    return (checksum.isDefined() ? checksum.get().numFiles() : snapshot.numOfFiles()) == 0;
  }

  /** The table's properties ({@code TBLPROPERTIES}) at its current version. */
  public Map<String, String> properties(SparkSession spark) {
    return CollectionConverters.asJava(latest.apply(spark)._2().metadata().configuration());
  }

  /** How many data files the table's current version has, and their bytes. */
  public long[] filesAndBytes(SparkSession spark) {
    Snapshot snapshot = latest.apply(spark)._2();
    return new long[] {snapshot.numOfFiles(), snapshot.sizeInBytes()};
  }

  /** The table's schema at its current version. */
  public StructType schema(SparkSession spark) {
    return latest.apply(spark)._2().schema();
  }

  /**
   * The table as of its current version, for a batch that caches what it reads of a table
   * and then writes that table: after each write Spark re-plans every cached plan that reads the
   * table's latest version, which lists the table's files again (a Spark job per scan). A read of
   * a pinned version is not such a plan.
   */
  public Dataset<Row> readPinned(SparkSession session) {
    return load.apply(session.read().option("versionAsOf", version(session)));
  }

  /**
   * The rows of the table's current version that {@code predicate} selects, read as
   * {@link #readPinned(SparkSession)} reads; from the files the driver chooses when the version's
   * checksum lists them ({@link FileSkipping}), which spares Delta's data skipping job.
   */
  public Dataset<Row> readPinned(SparkSession session, Column predicate) {
    Tuple2<DeltaLog, Snapshot> current = latest.apply(session);
    return FileSkipping.rows(session, current._1(), current._2(), predicate)
        .orElseGet(() -> load.apply(session.read().option("versionAsOf", current._2().version())).where(predicate));
  }
}
