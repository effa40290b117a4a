package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.common.SparkPlans;
import io.sluice.graph.GraphException;
import io.sluice.graph.PipelinePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code list_files(path)} table function (SEMANTICS §5.2): the files under a folder,
 * at any depth, as {@code path}, {@code name}, {@code size} and {@code modification_time},
 * listed when the query is built. Hidden files and folders (names starting with {@code .} or
 * {@code _}) are left out, as Spark's file sources leave them out.
 */
final class ListFiles {
  static final String NAME = "list_files";
  private static final StructType SCHEMA = new StructType()
      .add("path", DataTypes.StringType, false)
      .add("name", DataTypes.StringType, false)
      .add("size", DataTypes.LongType, false)
      .add("modification_time", DataTypes.TimestampType, false);

  private ListFiles() {}

  static boolean isListFiles(UnresolvedTableValuedFunction function) {
    List<String> name = CollectionConverters.asJava(function.name());
    return name.size() == 1 && name.get(0).equalsIgnoreCase(NAME);
  }

  static LogicalPlan plan(SparkSession spark, UnresolvedTableValuedFunction function, Path baseDir, Origin origin) {
    List<Expression> arguments = CollectionConverters.asJava(function.functionArgs());
    if (arguments.size() != 1) {
      throw FunctionArguments.error(NAME, origin, "takes one argument: the folder's path");
    }
    String location = PipelinePaths.resolve(FunctionArguments.constant(spark, arguments.get(0), NAME, "path", origin), baseDir);
    List<Row> files = new ArrayList<>();
    org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(location);
    try {
      FileSystem fs = folder.getFileSystem(spark.sparkContext().hadoopConfiguration());
      RemoteIterator<LocatedFileStatus> listing = fs.listFiles(folder, true);
      while (listing.hasNext()) {
        LocatedFileStatus file = listing.next();
        String name = file.getPath().getName();
        if (!hidden(folder, file.getPath())) {
          files.add(RowFactory.create(file.getPath().toString(), name, file.getLen(),
              new Timestamp(file.getModificationTime())));
        }
      }
    } catch (FileNotFoundException e) {
      throw new GraphException(ErrorClass.LIST_FILES_PATH_NOT_FOUND, origin, "list_files: folder '" + location + "' does not exist");
    } catch (IOException e) {
      throw new GraphException(ErrorClass.LIST_FILES_PATH_NOT_FOUND, origin,
          "list_files: cannot list '" + location + "': " + e.getMessage(), e);
    }
    files.sort(Comparator.comparing(row -> row.getString(0)));
    return SparkPlans.logicalPlan(spark.createDataFrame(files, SCHEMA));
  }

  /** Whether the file, or a folder between {@code folder} and it, is hidden (e.g. a writer's {@code _temporary}). */
  private static boolean hidden(org.apache.hadoop.fs.Path folder, org.apache.hadoop.fs.Path file) {
    int depth = folder.depth();
    for (org.apache.hadoop.fs.Path p = file; p != null && p.depth() > depth; p = p.getParent()) {
      if (p.getName().startsWith(".") || p.getName().startsWith("_")) {
        return true;
      }
    }
    return false;
  }
}
