package io.sluice.execution;

import io.sluice.common.SparkPlans;
import io.sluice.storage.StoragePath;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.Metadata;
import org.apache.spark.sql.delta.actions.RemoveFile;
import org.apache.spark.sql.execution.datasources.DataSource;
import org.apache.spark.sql.execution.streaming.runtime.StreamingRelation;
import scala.Option;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;
import scala.runtime.BoxedUnit;

/**
 * How a flow's stream takes a Delta table it reads for the first time (its checkpoint holds no
 * batch yet). Delta starts a new stream with the table's initial snapshot: it lists every file of
 * the current version in Spark jobs of its own (the state's replay, a range partitioning, an
 * index, a cache), and lists it all again whenever Spark asks for that first batch anew, as it
 * does of a restarted stream's last batch. When every commit of the table since its creation only
 * added files, reading those commits from version 0 gives the same rows without those jobs. Tables
 * with a removed or rewritten file (an update, a delete, a compaction), a changed schema, or more
 * than {@link #MAX_COMMITS} commits are read from their snapshot, as Delta does by default; so is
 * a stream given a starting point or reading the change feed.
 *
 * <p>The tables a stream started on at version 0 are listed in its checkpoint ({@code
 * sluice-first-version}): its first batch was cut from their commits, so every later run reads
 * it the same way (the option names only where a stream's first batch starts).
 */
final class NewStreamStart {
  /** The most commits the check reads (each a small file); a table with more is read from its snapshot. */
  static final long MAX_COMMITS = 100;
  private static final String FILE = "sluice-first-version";
  private static final String STARTING_VERSION = "startingVersion";

  private NewStreamStart() {}

  /** {@code stream}, whose checkpoint is {@code checkpoint}, reading each table listed or eligible from version 0. */
  static Dataset<Row> apply(SparkSession spark, Dataset<Row> stream, StoragePath checkpoint) {
    LogicalPlan plan = stream.queryExecution().analyzed();
    StoragePath file = checkpoint.resolve(FILE);
    Set<String> fromFirstVersion;
    if (StreamedSources.lastBatch(checkpoint, "offsets") >= 0) {
      fromFirstVersion = file.readIfExists().map(text -> Set.copyOf(text.lines().toList())).orElse(Set.of());
    } else {
      fromFirstVersion = new TreeSet<>();
      plan.foreach(node -> {
        if (node instanceof StreamingRelation relation && onlyAppended(spark, relation.dataSource())) {
          fromFirstVersion.add(StreamedSources.deltaLocation(relation.dataSource()).orElseThrow());
        }
        return BoxedUnit.UNIT;
      });
      if (fromFirstVersion.isEmpty()) {
        file.delete();
      } else {
        file.write(String.join("\n", fromFirstVersion));
      }
    }
    if (fromFirstVersion.isEmpty()) {
      return stream;
    }
    return SparkPlans.ofRows(spark, plan.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return node instanceof StreamingRelation relation
            && StreamedSources.deltaLocation(relation.dataSource()).filter(fromFirstVersion::contains).isPresent();
      }

      @Override
      public LogicalPlan apply(LogicalPlan node) {
        StreamingRelation relation = (StreamingRelation) node;
        DataSource source = relation.dataSource();
        DataSource fromZero = source.copy(source.sparkSession(), source.className(), source.paths(),
            source.userSpecifiedSchema(), source.partitionColumns(), source.bucketSpec(),
            source.options().updated(STARTING_VERSION, "0"), source.catalogTable(), source.userSpecifiedStreamingSourceName());
        return relation.copy(fromZero, relation.sourceName(), relation.output(), relation.sourceIdentifyingName());
      }
    }));
  }

  /**
   * Whether {@code source} is a Delta table read as plain rows from its snapshot, whose log holds
   * every commit from version 0, each adding files and nothing else (a metadata change keeping
   * the schema and partitioning, such as a table property, counts as nothing).
   */
  private static boolean onlyAppended(SparkSession spark, DataSource source) {
    for (Map.Entry<String, String> option : CollectionConverters.asJava(source.options()).entrySet()) {
      String key = option.getKey().toLowerCase(Locale.ROOT);
      boolean changeFeed = (key.equals("readchangefeed") || key.equals("readchangedata")) && option.getValue().equalsIgnoreCase("true");
      if (key.startsWith("starting") || changeFeed) {
        return false;
      }
    }
    Optional<String> location = StreamedSources.deltaLocation(source);
    if (location.isEmpty()) {
      return false;
    }
    try {
      Tuple2<org.apache.spark.sql.delta.DeltaLog, Snapshot> latest = DeltaTarget.location(location.get()).latest(spark);
      Snapshot snapshot = latest._2();
      if (snapshot.version() < 0 || snapshot.version() >= MAX_COMMITS) {
        return false;
      }
      Metadata current = snapshot.metadata();
      Iterator<Tuple2<Object, Seq<Action>>> commits = latest._1().getChanges(0, Option.empty(), true);
      long expected = 0;
      while (commits.hasNext()) {
        Tuple2<Object, Seq<Action>> commit = commits.next();
        if ((Long) commit._1() != expected++) {
          return false;
        }
        for (Action action : CollectionConverters.asJava(commit._2())) {
          if (action instanceof RemoveFile
              || action instanceof AddFile add && (!add.dataChange() || add.deletionVector() != null)
              || action instanceof Metadata metadata && !sameShape(metadata, current)) {
            return false;
          }
        }
      }
      return expected == snapshot.version() + 1;
    } catch (RuntimeException unreadable) {
      return false; // Delta reads the table its own way, and reports what fails
    }
  }

  private static boolean sameShape(Metadata a, Metadata b) {
    return a.schema().equals(b.schema()) && a.partitionColumns().equals(b.partitionColumns());
  }
}
