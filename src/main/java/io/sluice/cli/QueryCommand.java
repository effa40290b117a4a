package io.sluice.cli;

import io.sluice.eventlog.EventLog;
import io.sluice.spec.LibraryLoader;
import io.sluice.spec.PipelineSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code sluice query}: any Spark SQL statement against the pipeline's catalog, and its event log. */
@Command(name = "query", description = "Run a Spark SQL statement against the pipeline's catalog (event_log is the event log).")
final class QueryCommand extends PipelineCommand {
  @Option(names = "--format", defaultValue = "table", description = "table, csv or json (JSON Lines).")
  ResultPrinter.Format format;

  @Parameters(arity = "1..*", paramLabel = "[DIR] SQL", description = "Pipeline folder (default: current folder), then "
      + "the statement: quote it, or its words are joined with spaces (and the shell expands an unquoted *).")
  List<String> arguments;

  /** The first argument is the folder when it names one and something follows it; the rest is the statement. */
  private boolean startsWithFolder() {
    return arguments.size() > 1 && Files.isDirectory(Path.of(arguments.get(0)));
  }

  @Override
  Path dir() {
    String first = arguments.get(0);
    if (arguments.size() == 1 && Files.isDirectory(Path.of(first))) {
      throw new ParameterException(command.commandLine(), "give the SQL statement after the folder " + first);
    }
    if (arguments.size() > 1 && first.contains("/") && !first.contains(" ") && !Files.isDirectory(Path.of(first))) {
      throw new ParameterException(command.commandLine(), "no such pipeline folder: " + first);
    }
    return Path.of(startsWithFolder() ? first : ".");
  }

  private String sql() {
    return String.join(" ", arguments.subList(startsWithFolder() ? 1 : 0, arguments.size()));
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
