package io.sluice.cli;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.SparkPlans;
import io.sluice.eventlog.EventLog;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.ResolvedGraph;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.PipelineUpdate;
import io.sluice.update.TableMaintenance;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice maintain [DIR] [--tables a,b]}: compacts and vacuums the pipeline's tables now (SEMANTICS §11.1). */
@Command(name = "maintain", description = "Compact (OPTIMIZE) and clean up (VACUUM) the pipeline's tables, their hidden state and the event log.")
final class MaintainCommand extends FolderCommand {
  @Option(names = "--tables", split = ",", paramLabel = "a,b", description = "Only these tables (default: every table).")
  List<String> tables = new ArrayList<>();

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    return maintain(spec, spark, new EventLog(spark, spec.storage(), spec.name(), UUID.randomUUID().toString()));
  }

  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  /**
   * Beside a running update, e.g. a continuous one: OPTIMIZE and VACUUM are Delta commits that
   * change no row, so the update's appends go on; a MERGE that meets a compaction fails and is retried.
   */
  @Override
  int runWhileUpdating(PipelineSpec spec, SparkSession spark, String holder) {
    err().println("(maintaining while " + holder + " updates the pipeline)");
    ReaderCatalog.register(spark, spec);
    return maintain(spec, spark, EventLog.besideRunningUpdate(spark, spec.storage(), spec.name(), UUID.randomUUID().toString()));
  }

  private int maintain(PipelineSpec spec, SparkSession spark, EventLog events) {
    ResolvedGraph graph = PipelineUpdate.validate(spark, spec);
    List<DatasetDefinition> existing = graph.graph().datasets().values().stream()
        .filter(d -> d.type().isTable() && spark.catalog().tableExists(d.name().quoted())).toList();
    List<DatasetDefinition> chosen = tables.isEmpty() ? existing : new ArrayList<>();
    for (String name : tables) {
      Optional<DatasetDefinition> table = graph.graph().dataset(graph.graph().qualify(SparkPlans.parseName(spark, name.trim())))
          .filter(existing::contains);
      if (table.isEmpty()) {
        throw new SluiceException(ErrorClass.UNKNOWN_DATASET, "--tables names '" + name.trim() + "', which is not a table of"
            + " this pipeline that an update has made; they are "
            + String.join(", ", existing.stream().map(d -> d.name().name()).sorted().toList()));
      }
      chosen.add(table.get());
    }
    events.addListener(event -> out().println(event.message()));
    try {
      if (chosen.isEmpty()) {
        out().println("no table to maintain yet: an update makes them");
      }
      new TableMaintenance(spark, spec.storage(), events).maintain(chosen);
    } finally {
      events.flush();
    }
    return 0;
  }
}
