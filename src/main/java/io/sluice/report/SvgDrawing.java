package io.sluice.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The picture of a pipeline as SVG, laid out by {@link GraphLayout}: a box per node, coloured
 * by kind and outlined by the latest update's state, and an arrow per edge. Each box is a
 * {@code <g class="node" data-name=... data-kind=...>}, so pages and tests can find it.
 */
final class SvgDrawing {
  private static final Map<String, String> FILL = Map.of(
      PipelineView.SOURCE, "#eef1f4",
      "streaming table", "#dcecfb",
      "materialized view", "#e3f4e1",
      "view", "#f6eedd",
      "temporary view", "#f6eedd",
      "sink", "#f8e1ec");
  private static final Map<String, String> STROKE = Map.of(
      "COMPLETED", "#2e7d32",
      "FAILED", "#c62828",
      "SKIPPED", "#9e9e9e",
      "STOPPED", "#ef6c00",
      "EXCLUDED", "#9e9e9e");

  private SvgDrawing() {}

  static String draw(PipelineView view) {
    GraphLayout.Placed placed = GraphLayout.place(view);
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pipeline-graph\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n",
        placed.width(), placed.height(), placed.width(), placed.height()));
    svg.append("<title>").append(escape("pipeline " + view.pipeline())).append("</title>\n");
    svg.append("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        + "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#607080\"/></marker></defs>\n");
    for (GraphLayout.Route route : placed.routes()) {
      String points = route.points().stream().map(p -> String.format(Locale.ROOT, "%.1f,%.1f", p.x(), p.y()))
          .collect(Collectors.joining(" "));
      svg.append("<g class=\"edge\" data-flow=\"").append(escape(route.edge().flow())).append("\">")
          .append("<polyline points=\"").append(points)
          .append("\" fill=\"none\" stroke=\"#607080\" stroke-width=\"1.3\" marker-end=\"url(#arrow)\"/>");
      if (route.label() != null) {
        GraphLayout.Box label = route.label();
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#37474f\">%s</text>",
            label.x(), label.y() + label.height() - 4, escape(route.edge().label())));
      }
      svg.append("</g>\n");
    }
    for (PipelineView.Node node : view.nodes()) {
      GraphLayout.Box box = placed.boxes().get(node.id());
      String stroke = node.state().map(s -> STROKE.getOrDefault(s, "#f9a825")).orElse("#90a4ae");
      svg.append("<g class=\"node\" data-name=\"").append(escape(node.name())).append("\" data-kind=\"")
          .append(node.kindClass()).append("\"").append(node.state().map(s -> " data-state=\"" + s + "\"").orElse(""))
          .append(">");
      svg.append("<title>").append(escape(String.join("\n", GraphLayout.lines(node)))).append("</title>");
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"%s/>",
          box.x(), box.y(), box.width(), box.height(), node.isSource() ? 2 : 8, fill(node),
          stroke, node.isSource() ? " stroke-dasharray=\"4 3\"" : ""));
      List<String> lines = GraphLayout.lines(node);
      for (int i = 0; i < lines.size(); i++) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\"%s>%s</text>",
            box.x() + GraphLayout.PADDING, box.y() + GraphLayout.PADDING + 10 + i * GraphLayout.LINE_HEIGHT,
            i == 0 ? " font-weight=\"bold\"" : " font-size=\"11\" fill=\"#455a64\"", escape(lines.get(i))));
      }
      svg.append("</g>\n");
    }
    return svg.append("</svg>\n").toString();
  }

  /** A node's colour, by kind: the same in every format that has colours. */
  static String fill(PipelineView.Node node) {
    return FILL.getOrDefault(node.kind(), "#ffffff");
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
