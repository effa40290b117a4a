package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.SparkPlans;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * Which tables an update refreshes and which it clears first (SEMANTICS §1.6). Views
 * always run: they write nothing and selected flows may read them.
 *
 * <p>A cleared table is a new table to the streams that read it, so a stream from a cleared
 * table must restart too: an explicit {@code --full-refresh} that would leave such a reader
 * behind is refused with the tables to add, and {@code --full-refresh-all} keeps a table
 * that a non-resettable table streams from, with a warning.
 *
 * <p>A sink is refreshed and fully refreshed like a table, by name: a full refresh of a sink
 * restarts its flows from the start of their sources, and appends again (SEMANTICS §9.3).
 *
 * @param selected tables and sinks whose flows run; all when no names were given
 * @param cleared tables to clear, and sinks whose flows restart, with their checkpoints
 * @param warnings what {@code --full-refresh-all} left alone, and why
 */
public record RefreshSelection(Set<DatasetName> selected, Set<DatasetName> cleared, List<String> warnings) {

  /**
   * @param dropped tables dropped outside the pipeline while their flows' checkpoints remain:
   *     cleared as a full refresh would, with a warning
   */
  public static RefreshSelection of(SparkSession spark, ResolvedGraph graph, UpdateOptions options, Set<DatasetName> dropped) {
    Set<DatasetName> tables = new LinkedHashSet<>();
    graph.graph().datasets().values().stream().filter(RefreshSelection::isTarget).forEach(d -> tables.add(d.name()));
    Set<DatasetName> cleared = new LinkedHashSet<>();
    List<String> warnings = new ArrayList<>();
    for (String name : options.fullRefresh()) {
      DatasetDefinition table = table(spark, graph, name, "--full-refresh");
      if (!table.resetAllowed()) {
        throw new SluiceException(ErrorClass.RESET_NOT_ALLOWED,
            "table '" + table.name() + "' has " + DatasetDefinition.RESET_ALLOWED
                + " = false: a full refresh would clear it; refresh it without --full-refresh");
      }
      cleared.add(table.name());
    }
    for (DatasetName table : dropped) {
      if (cleared.add(table)) {
        warnings.add("table '" + table + "' was dropped outside the pipeline: rebuilt from its sources, as a full"
            + " refresh of it would");
      }
    }
    if (options.fullRefreshAll()) {
      for (DatasetName name : tables) {
        if (graph.dataset(name).resetAllowed()) {
          cleared.add(name);
        } else {
          warnings.add("table '" + name + "' has " + DatasetDefinition.RESET_ALLOWED
              + " = false: --full-refresh-all refreshes it without clearing it");
        }
      }
      keepSourcesOfUnclearedStreams(graph, cleared, warnings);
      return new RefreshSelection(tables, cleared, warnings);
    }
    refuseOrphanedStreams(graph, cleared, dropped);
    Set<DatasetName> selected = new LinkedHashSet<>(cleared);
    for (String name : options.refresh()) {
      selected.add(table(spark, graph, name, "--refresh").name());
    }
    return new RefreshSelection(selected.isEmpty() ? tables : selected, cleared, warnings);
  }

  /** Whether the flows into {@code target} run in this update. */
  public boolean runs(DatasetDefinition target) {
    return target.type().isView() || selected.contains(target.name());
  }

  private static void keepSourcesOfUnclearedStreams(ResolvedGraph graph, Set<DatasetName> cleared, List<String> warnings) {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (DatasetName table : List.copyOf(cleared)) {
        Optional<DatasetName> keeper = unclearedStreamReaders(graph, table, cleared).stream().findFirst();
        if (keeper.isPresent()) {
          cleared.remove(table);
          warnings.add("table '" + table + "' is not cleared: '" + keeper.get() + "', which is not cleared, streams from it");
          changed = true;
        }
      }
    }
  }

  private static void refuseOrphanedStreams(ResolvedGraph graph, Set<DatasetName> cleared, Set<DatasetName> dropped) {
    for (DatasetName table : cleared) {
      Set<DatasetName> readers = unclearedStreamReaders(graph, table, cleared);
      if (!readers.isEmpty()) {
        String names = readers.stream().map(DatasetName::name).collect(Collectors.joining(","));
        if (dropped.contains(table)) {
          throw new SluiceException(ErrorClass.TABLE_DROPPED_OUTSIDE, "table '" + table + "' was dropped outside the"
              + " pipeline; rebuilding it from its sources restarts it, so the tables that stream from it must restart"
              + " too: run with --full-refresh " + table.name() + "," + names);
        }
        throw new SluiceException(ErrorClass.FULL_REFRESH_ORPHANS_STREAM,
            "a full refresh of '" + table + "' restarts it, so the tables that stream from it must restart too: "
                + "add them (--full-refresh " + table.name() + "," + names + ")");
      }
    }
  }

  /** Tables outside {@code cleared} with a flow that streams from {@code table} (views are followed through). */
  private static Set<DatasetName> unclearedStreamReaders(ResolvedGraph graph, DatasetName table, Set<DatasetName> cleared) {
    Set<DatasetName> readers = new LinkedHashSet<>();
    for (ResolvedFlow flow : graph.flows()) {
      if (!flow.streamingInputs().contains(table)) {
        continue;
      }
      DatasetDefinition target = graph.dataset(flow.target());
      if (target.type().isView()) {
        readers.addAll(unclearedStreamReaders(graph, target.name(), cleared));
      } else if (!cleared.contains(target.name())) {
        readers.add(target.name());
      }
    }
    return readers;
  }

  private static DatasetDefinition table(SparkSession spark, ResolvedGraph graph, String name, String option) {
    List<String> parts;
    try {
      parts = SparkPlans.parseName(spark, name.trim());
    } catch (IllegalArgumentException e) {
      parts = List.of(name);
    }
    DatasetName qualified = parts.size() <= 3 ? graph.graph().qualify(parts) : null;
    DatasetDefinition dataset = qualified == null ? null : graph.graph().datasets().get(qualified);
    if (dataset == null || !isTarget(dataset)) {
      List<String> known = graph.graph().datasets().values().stream()
          .filter(RefreshSelection::isTarget).map(d -> d.name().name()).sorted().toList();
      throw new SluiceException(ErrorClass.UNKNOWN_DATASET,
          option + " names '" + name + "', which is not a table or sink of this pipeline; they are "
              + String.join(", ", known));
    }
    return dataset;
  }

  /** Tables and sinks: what an update refreshes, and a full refresh restarts (a sink is never cleared). */
  private static boolean isTarget(DatasetDefinition dataset) {
    return !dataset.type().isView();
  }
}
