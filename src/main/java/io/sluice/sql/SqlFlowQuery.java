package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkErrors;
import io.sluice.common.SparkPlans;
import io.sluice.graph.FlowQuery;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.GraphException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.analysis.CTESubstitution$;
import org.apache.spark.sql.catalyst.analysis.NamedStreamingRelation;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedHint;
import org.apache.spark.sql.classic.SparkSession;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * A flow query written in SQL. Spark parses it; Sluice then swaps the references to the
 * pipeline's own datasets (and to pinned tables, see {@link io.sluice.graph.TablePins}) and the
 * {@code read_files} and {@code list_files} calls for real plans, binds the snapshot version
 * functions, and leaves every other name to Spark's analyser.
 *
 * @param origin where the text starts, column included: Spark's parser positions are relative to it;
 *     other errors about the query cite its line only
 * @param catalog the current catalog where the query was defined ({@code USE CATALOG})
 * @param database the current schema where the query was defined ({@code USE SCHEMA})
 * @param baseDir the pipeline folder: relative {@code read_files} paths start there
 * @param versions the snapshot version functions this query may call, with their values
 */
public record SqlFlowQuery(
    String text, Origin origin, String catalog, String database, Path baseDir,
    Map<String, SnapshotVersionFunctions.Bound> versions) implements FlowQuery {

  public SqlFlowQuery {
    versions = Map.copyOf(versions);
  }

  public SqlFlowQuery(String text, Origin origin, String catalog, String database, Path baseDir) {
    this(text, origin, catalog, database, baseDir, Map.of());
  }

  @Override
  public Optional<String> sqlText() {
    return Optional.of(text);
  }

  /** The same query, with {@code function} returning {@code value}. */
  SqlFlowQuery binding(String function, SnapshotVersionFunctions.Bound value) {
    return new SqlFlowQuery(text, origin, catalog, database, baseDir, Map.of(function, value));
  }

  @Override
  public Dataset<Row> build(FlowResolution resolution) {
    SparkSession spark = (SparkSession) resolution.spark();
    LogicalPlan parsed = parse(spark);
    LogicalPlan withCtes = CTESubstitution$.MODULE$.apply(parsed);
    // Versions first: a read_files path may be built from current_snapshot_version().
    LogicalPlan bound = SnapshotVersionFunctions.bind(spark, withCtes, versions, origin.lineOnly());
    return SparkPlans.ofRows(spark, bound.transformDownWithSubqueries(new PipelineSources(resolution)));
  }

  private LogicalPlan parse(SparkSession spark) {
    try {
      return spark.sessionState().sqlParser().parsePlan(text);
    } catch (ParseException e) {
      int line = (Integer) e.start().line().getOrElse(() -> 1);
      int column = (Integer) e.start().startPosition().getOrElse(() -> 0) + 1;
      throw new GraphException(ErrorClass.SQL_SYNTAX_ERROR, origin.at(line, column), SparkErrors.firstLine(e), e);
    }
  }

  /**
   * Replaces pipeline dataset names, the read_files, read_kafka and list_files calls, and the
   * de-duplication hint; NamedStreamingRelation marks STREAM(...).
   */
  private final class PipelineSources extends AbstractPartialFunction<LogicalPlan, LogicalPlan> {
    private final FlowResolution resolution;

    PipelineSources(FlowResolution resolution) {
      this.resolution = resolution;
    }

    @Override
    public boolean isDefinedAt(LogicalPlan plan) {
      return plan instanceof NamedStreamingRelation
          || plan instanceof UnresolvedHint
          || plan instanceof UnresolvedRelation
          || plan instanceof UnresolvedTableValuedFunction;
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
      return source(plan, false).orElse(plan);
    }

    private Optional<LogicalPlan> source(LogicalPlan plan, boolean streaming) {
      if (plan instanceof NamedStreamingRelation named) {
        return source(named.child(), true);
      }
      if (plan instanceof UnresolvedHint hint) {
        if (!DeduplicationHint.isDeduplication(hint, origin.lineOnly())) {
          return Optional.empty();
        }
        LogicalPlan child = hint.child().transformDownWithSubqueries(this);
        return Optional.of(DeduplicationHint.plan(resolution.spark(), hint, child, origin.lineOnly()));
      }
      if (plan instanceof UnresolvedRelation relation) {
        List<String> parts = CollectionConverters.asJava(relation.multipartIdentifier());
        boolean stream = streaming || relation.isStreaming();
        return resolution.readPipelineDataset(parts, catalog, database, stream)
            .or(() -> stream ? Optional.empty() : resolution.readPinnedTable(parts, catalog, database))
            .map(SparkPlans::logicalPlan);
      }
      if (plan instanceof UnresolvedTableValuedFunction function && ReadFiles.isReadFiles(function)) {
        boolean stream = streaming || function.isStreaming() || resolution.streamingByDefault();
        return Optional.of(ReadFiles.plan(resolution, function, stream, baseDir, origin.lineOnly()));
      }
      if (plan instanceof UnresolvedTableValuedFunction function && ReadKafka.isReadKafka(function)) {
        boolean stream = streaming || function.isStreaming() || resolution.streamingByDefault();
        return Optional.of(ReadKafka.plan(resolution, function, stream, origin.lineOnly()));
      }
      if (plan instanceof UnresolvedTableValuedFunction function && ListFiles.isListFiles(function)) {
        return Optional.of(ListFiles.plan(resolution.spark(), function, baseDir, origin.lineOnly()));
      }
      return Optional.empty();
    }
  }
}
