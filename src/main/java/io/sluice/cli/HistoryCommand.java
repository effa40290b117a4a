package io.sluice.cli;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.SparkPlans;
import io.sluice.execution.CommitTag;
import io.sluice.execution.TableHistory;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.DatasetDefinition;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.LibraryLoader;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sluice history [DIR] TABLE}: a table's commits, each with the update, flow and batch that made it. */
@Command(name = "history", description = "List a table's commits, newest first, with the update, flow and batch of each.")
final class HistoryCommand extends PipelineCommand {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  @Parameters(arity = "1..2", paramLabel = "[DIR] TABLE", description = "Pipeline folder (default: the current folder, or the nearest folder above it with a spec), then a table of it.")
  List<String> arguments;

  @Override
  Path dir() {
    return arguments.size() == 2 ? Path.of(arguments.get(0)) : null;
  }

  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    String name = arguments.get(arguments.size() - 1);
    DataflowGraph graph = LibraryLoader.load(spec);
    Optional<DatasetDefinition> table = graph.dataset(graph.qualify(SparkPlans.parseName(spark, name)))
        .filter(d -> d.type().isTable());
    if (table.isEmpty() || !spark.catalog().tableExists(table.get().name().quoted())) {
      List<String> tables = graph.datasets().values().stream().filter(d -> d.type().isTable())
          .map(d -> d.name().name()).sorted().toList();
      throw new SluiceException(ErrorClass.UNKNOWN_DATASET, table.isEmpty()
          ? "history names '" + name + "', which is not a table of this pipeline; its tables are " + String.join(", ", tables)
          : "table '" + name + "' does not exist yet: run an update first");
    }
    out().println("history of " + table.get().name() + ", newest first");
    out().printf("%-8s %-19s %-22s %-36s %-24s %6s  %s%n", "version", "time", "operation", "update", "flow", "batch", "rows");
    for (TableHistory.Commit commit : TableHistory.of(spark, table.get().name())) {
      Optional<CommitTag.Made> made = commit.madeBy();
      out().printf("%-8d %-19s %-22s %-36s %-24s %6s  %s%n", commit.version(), TIME.format(commit.time()), commit.operation(),
          made.flatMap(CommitTag.Made::update).orElse("-"), made.flatMap(CommitTag.Made::flow).orElse("-"),
          made.map(m -> String.valueOf(m.batch())).orElse("-"), commit.rows());
    }
    return 0;
  }
}
