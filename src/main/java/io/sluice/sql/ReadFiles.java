package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkPlans;
import io.sluice.graph.FlowResolution;
import io.sluice.graph.GraphException;
import io.sluice.graph.PipelinePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedArgumentExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code read_files(path, format => ..., schema => ..., option => value)} table function:
 * a batch read, or a streaming file source whose progress lives in the flow's checkpoint.
 * Every argument but {@code format}, {@code schema} and {@code rescuedDataColumn} is a Spark
 * reader option. JSON and CSV reads get a rescued data column ({@link RescuedData}).
 */
final class ReadFiles {
  static final String NAME = "read_files";

  private ReadFiles() {}

  static boolean isReadFiles(UnresolvedTableValuedFunction function) {
    List<String> name = CollectionConverters.asJava(function.name());
    return name.size() == 1 && name.get(0).equalsIgnoreCase(NAME);
  }

  static LogicalPlan plan(
      FlowResolution resolution, UnresolvedTableValuedFunction function, boolean streaming, Path baseDir, Origin origin) {
    String path = null;
    Map<String, String> options = new LinkedHashMap<>();
    for (Expression argument : CollectionConverters.asJava(function.functionArgs())) {
      if (argument instanceof NamedArgumentExpression named) {
        options.put(named.key().toLowerCase(Locale.ROOT), FunctionArguments.constant(resolution.spark(), named.value(), NAME, named.key(), origin));
      } else if (path == null) {
        path = FunctionArguments.constant(resolution.spark(), argument, NAME, "path", origin);
      } else {
        throw error(origin, "takes one path; name the other arguments, as in format => 'json'");
      }
    }
    if (path == null) {
      throw error(origin, "needs a path as its first argument");
    }
    String location = PipelinePaths.resolve(path, baseDir);
    String format = options.remove("format");
    if (format == null) {
      format = formatFromExtension(location, origin);
    }
    String schema = options.remove("schema");
    checkExists(resolution.spark(), location, origin);
    return read(resolution.spark(), streaming, format, schema, options, location);
  }

  private static LogicalPlan read(
      SparkSession spark, boolean streaming, String format, String ddl, Map<String, String> options, String location) {
    Optional<RescuedData> rescue = RescuedData.of(format, options);
    // A stream without a schema is Spark's to refuse (or infer, if the session allows it).
    if (rescue.isEmpty() || (ddl == null && streaming)) {
      return SparkPlans.logicalPlan(load(spark, streaming, format, ddl == null ? null : StructType.fromDDL(ddl), options, location));
    }
    StructType schema = ddl != null ? StructType.fromDDL(ddl) : spark.read().format(format).options(rescue.get().readOptions(options)).load(location).schema();
    Dataset<Row> read = load(spark, streaming, format, rescue.get().readSchema(schema), rescue.get().readOptions(options), location);
    return SparkPlans.logicalPlan(rescue.get().project(read, schema));
  }

  private static Dataset<Row> load(
      SparkSession spark, boolean streaming, String format, StructType schema, Map<String, String> options, String location) {
    if (streaming) {
      DataStreamReader reader = spark.readStream().format(format).options(options);
      return (schema == null ? reader : reader.schema(schema)).load(location);
    }
    DataFrameReader reader = spark.read().format(format).options(options);
    return (schema == null ? reader : reader.schema(schema)).load(location);
  }

  private static String formatFromExtension(String location, Origin origin) {
    String lower = location.toLowerCase(Locale.ROOT);
    for (String format : List.of("json", "csv", "parquet", "orc", "avro", "txt")) {
      if (lower.endsWith("." + format)) {
        return format.equals("txt") ? "text" : format;
      }
    }
    throw error(origin, "cannot tell the format of '" + location + "'; add format => 'json' (or csv, parquet, ...)");
  }

  private static void checkExists(SparkSession spark, String location, Origin origin) {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
    try {
      FileSystem fs = path.getFileSystem(spark.sparkContext().hadoopConfiguration());
      FileStatus[] matches = fs.globStatus(path);
      if (matches == null || matches.length == 0) {
        throw new GraphException(ErrorClass.READ_FILES_PATH_NOT_FOUND, origin, "read_files: path '" + location + "' does not exist");
      }
    } catch (IOException e) {
      throw new GraphException(ErrorClass.READ_FILES_PATH_NOT_FOUND, origin,
          "read_files: cannot list '" + location + "': " + e.getMessage(), e);
    }
  }

  private static GraphException error(Origin origin, String message) {
    return FunctionArguments.error(NAME, origin, message);
  }
}
