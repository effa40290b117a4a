package io.sluice.cli;

import io.sluice.SluiceException;
import io.sluice.eventlog.UpdateHistory;
import io.sluice.execution.Checkpoints;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.kinds.mv.RefreshOptions;
import io.sluice.report.GraphFormat;
import io.sluice.report.PipelineView;
import io.sluice.spec.PipelineSpec;
import io.sluice.storage.StoragePath;
import io.sluice.testing.PipelineTestRunner;
import io.sluice.update.PipelineUpdate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice graph}: the pipeline's dataflow graph, with how the latest update left each dataset. */
@Command(name = "graph", description = "Draw the pipeline's dataflow graph (sources, datasets, flows) with the latest update's figures.")
final class GraphCommand extends FolderCommand {
  @Option(names = "--format", paramLabel = "svg|dot|mermaid",
      description = "svg (a picture), dot (Graphviz) or mermaid; default: from the --out file's extension, else svg.")
  GraphFormat format;

  @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of standard output.")
  Path outFile;

  @Override
  boolean readsWhileUpdating() {
    return true;
  }

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    ResolvedGraph graph = PipelineUpdate.validate(spark, spec);
    try {
      PipelineTestRunner.check(spark, spec, graph);
    } catch (SluiceException e) {
      // The picture is drawn all the same: a test's mistake is the test's, said here so that it is seen early.
      err().println("warning: " + e.userMessage());
    }
    PipelineView view = view(spark, spec, graph, UpdateHistory.recent(eventLog(spark, spec), 1));
    String text = format().write(view);
    if (outFile == null) {
      out().print(text);
      out().flush();
    } else {
      write(outFile, text);
      out().println("wrote " + outFile.toAbsolutePath().normalize());
    }
    return 0;
  }

  /**
   * The pipeline's graph as its definitions make it now, with the figures of the latest of
   * {@code updates} and the technique each materialized view would refresh by now.
   */
  static PipelineView view(SparkSession spark, PipelineSpec spec, ResolvedGraph graph, List<UpdateHistory.UpdateRecord> updates) {
    Map<DatasetName, String> nextRefreshes = new HashMap<>();
    Checkpoints checkpoints = new Checkpoints(StoragePath.root(spark, spec.storage()));
    for (ResolvedFlow flow : graph.flows()) {
      DatasetDefinition target = graph.dataset(flow.target());
      if (target.type() == DatasetType.MATERIALIZED_VIEW) {
        nextRefreshes.put(target.name(), RefreshOptions.now(spark, checkpoints, graph, flow, target).technique().orElse("cannot say"));
      }
    }
    return PipelineView.of(spec.name(), spec.root(), graph,
        updates.isEmpty() ? Optional.empty() : Optional.of(updates.get(updates.size() - 1)), nextRefreshes);
  }

  static void write(Path file, String text) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private GraphFormat format() {
    if (format != null) {
      return format;
    }
    String name = outFile == null ? "" : outFile.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".dot") || name.endsWith(".gv")) {
      return GraphFormat.DOT;
    }
    return name.endsWith(".mmd") || name.endsWith(".mermaid") ? GraphFormat.MERMAID : GraphFormat.SVG;
  }
}
