package io.sluice.cli;

import io.sluice.execution.Checkpoints;
import io.sluice.graph.ChangeFeed;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetType;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.kinds.mv.RefreshOptions;
import io.sluice.spec.PipelineSpec;
import io.sluice.storage.StoragePath;
import io.sluice.testing.PipelineTestRunner;
import io.sluice.testing.TestFiles;
import io.sluice.update.PipelineUpdate;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;

/** {@code sluice dry-run}: resolve and validate, write nothing. */
@Command(name = "dry-run", description = "Resolve and validate the pipeline without writing anything.")
final class DryRunCommand extends FolderCommand {
  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    ResolvedGraph graph = PipelineUpdate.validate(spark, spec);
    out().println("pipeline '" + spec.name() + "' is valid: " + graph.graph().datasets().size()
        + " datasets, " + graph.flows().size() + " flows");
    for (ResolvedFlow flow : graph.flows()) {
      out().println("  " + flow.name() + " -> " + graph.dataset(flow.target()).type() + " " + flow.target()
          + (flow.streaming() ? " (streaming)" : "") + "  " + flow.definition().origin());
    }
    Checkpoints checkpoints = new Checkpoints(StoragePath.root(spark, spec.storage()));
    for (ResolvedFlow flow : graph.flows()) {
      DatasetDefinition target = graph.dataset(flow.target());
      if (target.type() == DatasetType.MATERIALIZED_VIEW) {
        out().println("  " + target.name() + " is " + RefreshOptions.describe(flow, target));
        if (verbose) {
          out().println("  " + target.name() + " " + RefreshOptions.now(spark, checkpoints, graph, flow, target).sentence());
        }
      }
    }
    for (DatasetDefinition dataset : graph.datasetsInOrder()) {
      if (dataset.type().isTable() && !dataset.properties().containsKey(ChangeFeed.ENABLE_PROPERTY)) {
        ChangeFeed.keptFor(graph, dataset.name()).ifPresent(why -> out().println(
            "  " + dataset.name() + " keeps a change data feed: " + why));
      }
    }
    graph.warnings().forEach(w -> out().println("warning: " + w));
    int tests = PipelineTestRunner.check(spark, spec, graph);
    if (tests > 0) {
      out().println(tests + (tests == 1 ? " test" : " tests") + " in " + TestFiles.FOLDER + "/: each gives rows to sources the pipeline reads"
          + " and checks what it defines");
    }
    return 0;
  }
}
