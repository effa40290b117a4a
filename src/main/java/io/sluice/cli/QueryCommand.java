package io.sluice.cli;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.eventlog.EventLog;
import io.sluice.spec.PipelineSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code sluice query}: any Spark SQL statement against the pipeline's catalog, and its event log. */
@Command(name = "query", description = "Run a Spark SQL statement against the pipeline's catalog (event_log is the event log).")
final class QueryCommand extends PipelineCommand {
  /** The statements that only read, by their first word (after any comments and parentheses). */
  private static final Pattern READS = Pattern.compile(
      "^(\\s|--[^\\n]*\\n|/\\*.*?\\*/|\\()*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXPLAIN|VALUES|FROM|TABLE)\\b",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  @Option(names = "--format", defaultValue = "table", description = "table, csv or json (JSON Lines).")
  ResultPrinter.Format format;

  @Parameters(arity = "1..*", paramLabel = "[DIR] SQL", description = "Pipeline folder (default: the current folder, or the nearest folder above it with a spec), then "
      + "the statement: quote it, or its words are joined with spaces (and the shell expands an unquoted *).")
  List<String> arguments;

  /** The first argument is the folder when it names one and something follows it; the rest is the statement. */
  private boolean startsWithFolder() {
    return arguments.size() > 1 && Files.isDirectory(Path.of(arguments.get(0)));
  }

  @Override
  Path dir() {
    String first = arguments.get(0);
    if (specFile != null) {
      // With --spec, the arguments are the statement; a folder before it is a folder given twice.
      return startsWithFolder() ? Path.of(first) : null;
    }
    if (arguments.size() == 1 && Files.isDirectory(Path.of(first))) {
      throw new ParameterException(command.commandLine(), "give the SQL statement after the folder " + first);
    }
    if (arguments.size() > 1 && first.contains("/") && !first.contains(" ") && !Files.isDirectory(Path.of(first))) {
      throw new ParameterException(command.commandLine(), "no such pipeline folder: " + first);
    }
    return startsWithFolder() ? Path.of(first) : null;
  }

  private String sql() {
    return String.join(" ", arguments.subList(startsWithFolder() ? 1 : 0, arguments.size()));
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    useNamespace(spark, spec);
    eventLog(spark, spec).ifPresent(log -> log.createOrReplaceTempView(EventLog.VIEW_NAME));
    return print(spark);
  }

  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  /** While an update runs: statements that read, on the tables as of their latest commits. */
  @Override
  int runWhileUpdating(PipelineSpec spec, SparkSession spark, String holder) {
    if (!READS.matcher(sql()).lookingAt()) {
      throw new SluiceException(ErrorClass.UPDATE_ALREADY_RUNNING, "pipeline '" + spec.name() + "' is being updated by "
          + holder + "; while it runs, sluice query only reads (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN): run this"
          + " statement when it has finished");
    }
    ReaderCatalog.register(spark, spec);
    eventLog(spark, spec).ifPresent(log -> log.createOrReplaceTempView(EventLog.VIEW_NAME));
    err().println("(reading while " + holder + " updates the pipeline: each table as of its latest commit)");
    return print(spark);
  }

  private int print(SparkSession spark) {
    spark.conf().set("spark.sql.jsonGenerator.ignoreNullFields", "false");
    ResultPrinter.print(spark.sql(sql()), format, out());
    return 0;
  }

  private static void useNamespace(SparkSession spark, PipelineSpec spec) {
    spark.catalog().setCurrentCatalog(spec.catalog().orElse(PipelineSpec.DEFAULT_CATALOG));
    String database = spec.database().orElse(PipelineSpec.DEFAULT_DATABASE);
    if (spark.catalog().databaseExists(database)) {
      spark.catalog().setCurrentDatabase(database);
    }
  }
}
