package io.sluice.report;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The formats {@code sluice graph} writes: a picture (SVG), or text for Graphviz or Mermaid to draw. */
public enum GraphFormat {
  SVG(SvgDrawing::draw),
  DOT(GraphFormat::dot),
  MERMAID(GraphFormat::mermaid);

  private final Function<PipelineView, String> writer;

  GraphFormat(Function<PipelineView, String> writer) {
    this.writer = writer;
  }

  public String write(PipelineView view) {
    return writer.apply(view);
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  private static String dot(PipelineView view) {
    StringBuilder dot = new StringBuilder("digraph " + quoted(view.pipeline()) + " {\n");
    dot.append("  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];\n");
    dot.append("  edge [fontname=\"Helvetica\", fontsize=10, color=\"#607080\"];\n");
    for (PipelineView.Node node : view.nodes()) {
      dot.append("  ").append(node.id()).append(" [label=").append(quoted(String.join("\n", GraphLayout.lines(node))))
          .append(", fillcolor=").append(quoted(SvgDrawing.fill(node)))
          .append(node.isSource() ? ", style=\"dashed,filled\"" : "").append("];\n");
    }
    for (PipelineView.Edge edge : view.edges()) {
      dot.append("  ").append(edge.from()).append(" -> ").append(edge.to())
          .append(edge.label().isEmpty() ? "" : " [label=" + quoted(edge.label()) + "]").append(";\n");
    }
    return dot.append("}\n").toString();
  }

  /** A DOT string: in double quotes, with quotes and backslashes escaped and line breaks as \n. */
  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  private static String mermaid(PipelineView view) {
    StringBuilder text = new StringBuilder("flowchart LR\n");
    for (PipelineView.Node node : view.nodes()) {
      String label = "\"" + mermaidText(GraphLayout.lines(node)) + "\"";
      String shape = switch (node.kind()) {
        case PipelineView.SOURCE -> "[(" + label + ")]";
        case "materialized view" -> "(" + label + ")";
        case "view", "temporary view" -> "{{" + label + "}}";
        case "sink" -> ">" + label + "]";
        default -> "[" + label + "]";
      };
      text.append("  ").append(node.id()).append(shape).append("\n");
    }
    for (PipelineView.Edge edge : view.edges()) {
      text.append("  ").append(edge.from())
          .append(edge.label().isEmpty() ? " --> " : " -->|\"" + mermaidText(List.of(edge.label())) + "\"| ")
          .append(edge.to()).append("\n");
    }
    return text.toString();
  }

  /** Mermaid's quoted text: HTML entities for quotes and angle brackets, {@code <br/>} between lines. */
  private static String mermaidText(List<String> lines) {
    return lines.stream().map(l -> l.replace("&", "#amp;").replace("\"", "#quot;").replace("<", "#lt;").replace(">", "#gt;"))
        .collect(Collectors.joining("<br/>"));
  }
}
