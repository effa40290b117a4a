package io.sluice.report;

import io.sluice.eventlog.UpdateHistory.FlowRecord;
import io.sluice.eventlog.UpdateHistory.UpdateRecord;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ExternalSource;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The dataflow graph of a pipeline as a picture shows it: sources outside the pipeline and the
 * pipeline's datasets as nodes, each flow as edges from what it reads to its target, labelled
 * with its kind; each dataset with how the latest update left it. Immutable; the formats
 * ({@link GraphFormat}) and the report draw it.
 *
 * @param nodes sources first, then datasets in dependency order
 */
public record PipelineView(String pipeline, List<Node> nodes, List<Edge> edges) {
  public PipelineView {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  /**
   * One box of the picture.
   *
   * @param id a name safe in every format ({@code n0}, {@code n1}, ...)
   * @param kind {@code source}, or the dataset's type ({@code streaming table}, ...)
   * @param state the latest update's state of the flows into it ({@code COMPLETED}, ...), if it ran
   * @param figures rows written and duration in the latest update, if it ran
   * @param nextRefresh a materialized view's technique if an update refreshed it now ({@code GROUP_AGGREGATE}, ...)
   */
  public record Node(String id, String name, String kind, Optional<String> state, Optional<String> figures,
      Optional<String> nextRefresh) {
    public boolean isSource() {
      return kind.equals(SOURCE);
    }

    /** The kind as a CSS class and DOM attribute value: {@code streaming-table}. */
    public String kindClass() {
      return kind.replace(' ', '-');
    }
  }

  /** One arrow: a flow reading {@code from} into {@code to}; the label is empty for a table's own append flow. */
  public record Edge(String from, String to, String flow, String label) {}

  static final String SOURCE = "source";

  /**
   * The view of {@code graph} (a pipeline whose folder is {@code root}), with the figures of
   * {@code latest} and how each materialized view in {@code nextRefreshes} would refresh now.
   */
  public static PipelineView of(String pipeline, Path root, ResolvedGraph graph, Optional<UpdateRecord> latest,
      Map<DatasetName, String> nextRefreshes) {
    Map<String, Node> nodes = new LinkedHashMap<>();
    List<Edge> edges = new ArrayList<>();
    for (ResolvedFlow flow : graph.flows()) {
      for (ExternalSource source : flow.externalSources()) {
        String shown = relative(source.label(), root);
        nodes.computeIfAbsent("source:" + shown, k -> new Node("n" + nodes.size(), shown, SOURCE, Optional.empty(), Optional.empty(),
            Optional.empty()));
      }
    }
    for (DatasetDefinition dataset : graph.datasetsInOrder()) {
      String name = dataset.name().name();
      List<FlowRecord> ran = latest.map(u -> u.flows().stream().filter(f -> f.dataset().equals(name)).toList()).orElse(List.of());
      nodes.put(dataset.name().key(), new Node("n" + nodes.size(), name, dataset.type().toString(), state(ran), figures(ran),
          Optional.ofNullable(nextRefreshes.get(dataset.name()))));
    }
    for (ResolvedFlow flow : graph.flows()) {
      String target = nodes.get(flow.target().key()).id();
      String kind = FlowKindLabel.of(flow.definition().mode());
      // A table's own append flow is the plain case and goes unlabelled; other kinds and named flows say what they are.
      boolean own = flow.name().equals(flow.target());
      String label = own ? (kind.equals("append") ? "" : kind) : flow.name().name() + ": " + kind;
      for (ExternalSource source : flow.externalSources()) {
        edges.add(new Edge(nodes.get("source:" + relative(source.label(), root)).id(), target, flow.name().name(), label));
      }
      for (DatasetName input : flow.inputs()) {
        edges.add(new Edge(nodes.get(input.key()).id(), target, flow.name().name(), label));
      }
    }
    return new PipelineView(pipeline, new ArrayList<>(nodes.values()), edges);
  }

  /** Files under the pipeline folder by their path from it, as the user wrote them. */
  private static String relative(String source, Path root) {
    String prefix = root.toAbsolutePath().normalize() + "/";
    int at = source.indexOf(prefix);
    return at < 0 ? source : source.substring(0, at) + source.substring(at + prefix.length());
  }

  /** The worst state of the flows into a dataset: one failed flow fails it. */
  private static Optional<String> state(List<FlowRecord> flows) {
    List<String> order = List.of("FAILED", "RUNNING", "STARTING", "STOPPED", "SKIPPED", "QUEUED", "EXCLUDED", "COMPLETED");
    return flows.stream().map(FlowRecord::state).min((a, b) -> Integer.compare(rank(order, a), rank(order, b)));
  }

  private static int rank(List<String> order, String state) {
    int at = order.indexOf(state);
    return at < 0 ? order.size() : at;
  }

  private static Optional<String> figures(List<FlowRecord> flows) {
    if (flows.isEmpty()) {
      return Optional.empty();
    }
    long rows = flows.stream().mapToLong(FlowRecord::rowsWritten).sum();
    Duration took = flows.stream().map(FlowRecord::duration).reduce(Duration.ZERO, Duration::plus);
    return Optional.of(String.format(Locale.ROOT, "%,d rows · %.1f s", rows, took.toMillis() / 1000.0));
  }
}
