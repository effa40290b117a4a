package io.sluice.cli;

import io.sluice.eventlog.EventLog;
import io.sluice.spec.LibraryLoader;
import io.sluice.spec.PipelineSpec;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice query}: any Spark SQL statement against the pipeline's catalog, and its event log. */
@Command(name = "query", description = "Run a Spark SQL statement against the pipeline's catalog (event_log is the event log).")
final class QueryCommand extends PipelineCommand {
  @Option(names = "--format", defaultValue = "table", description = "table, csv or json (JSON Lines).")
  ResultPrinter.Format format;

  @Parameters(arity = "1..2", paramLabel = "[DIR] SQL", description = "Pipeline folder (default: current folder), then the statement.")
  List<String> arguments;

  @Override
  Path dir() {
    return Path.of(arguments.size() == 2 ? arguments.get(0) : ".");
  }

  private String sql() {
    return arguments.get(arguments.size() - 1);
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    useNamespace(spark, spec);
    EventLog.read(spark, spec.storage()).ifPresent(log -> log.createOrReplaceTempView(EventLog.VIEW_NAME));
    spark.conf().set("spark.sql.jsonGenerator.ignoreNullFields", "false");
    ResultPrinter.print(spark.sql(sql()), format, out());
    return 0;
  }

  private static void useNamespace(SparkSession spark, PipelineSpec spec) {
    spark.catalog().setCurrentCatalog(spec.catalog().orElse(LibraryLoader.DEFAULT_CATALOG));
    String database = spec.database().orElse(LibraryLoader.DEFAULT_DATABASE);
    if (spark.catalog().databaseExists(database)) {
      spark.catalog().setCurrentDatabase(database);
    }
  }
}
