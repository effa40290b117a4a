package io.sluice.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeLabelPlacement;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkLabel;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Places a {@link PipelineView} left to right with the Eclipse Layout Kernel's layered
 * algorithm: each node gets a box, each edge a route and a place for its label. Box sizes come
 * from the text they hold, measured as a 12-pixel sans-serif font averages.
 */
final class GraphLayout {
  static final double LINE_HEIGHT = 16;
  static final double PADDING = 10;
  private static final double NAME_CHAR = 7.6;
  private static final double SMALL_CHAR = 6.2;

  static {
    LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
  }

  private GraphLayout() {}

  /** A point of the drawing. */
  record Point(double x, double y) {}

  /** Where a node's box is. */
  record Box(double x, double y, double width, double height) {}

  /** An edge's route, from its source's box to its target's, and its label's box (if it has a label). */
  record Route(PipelineView.Edge edge, List<Point> points, Box label) {}

  /** The whole drawing. */
  record Placed(double width, double height, Map<String, Box> boxes, List<Route> routes) {}

  static Placed place(PipelineView view) {
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
    root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
    root.setProperty(CoreOptions.SPACING_NODE_NODE, 24.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 56.0);
    root.setProperty(CoreOptions.PADDING, new org.eclipse.elk.core.math.ElkPadding(16));
    Map<String, ElkNode> nodes = new LinkedHashMap<>();
    for (PipelineView.Node node : view.nodes()) {
      ElkNode box = ElkGraphUtil.createNode(root);
      List<String> lines = lines(node);
      double width = NAME_CHAR * lines.get(0).length();
      for (String line : lines.subList(1, lines.size())) {
        width = Math.max(width, SMALL_CHAR * line.length());
      }
      box.setDimensions(width + 2 * PADDING, lines.size() * LINE_HEIGHT + 2 * PADDING - 4);
      nodes.put(node.id(), box);
    }
    Map<ElkEdge, PipelineView.Edge> edges = new LinkedHashMap<>();
    for (PipelineView.Edge edge : view.edges()) {
      ElkEdge elk = ElkGraphUtil.createSimpleEdge(nodes.get(edge.from()), nodes.get(edge.to()));
      if (!edge.label().isEmpty()) {
        ElkLabel label = ElkGraphUtil.createLabel(edge.label(), elk);
        label.setDimensions(SMALL_CHAR * edge.label().length(), LINE_HEIGHT);
        label.setProperty(CoreOptions.EDGE_LABELS_PLACEMENT, EdgeLabelPlacement.CENTER);
      }
      edges.put(elk, edge);
    }
    new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

    Map<String, Box> boxes = new LinkedHashMap<>();
    nodes.forEach((id, n) -> boxes.put(id, new Box(n.getX(), n.getY(), n.getWidth(), n.getHeight())));
    List<Route> routes = new ArrayList<>();
    edges.forEach((elk, edge) -> {
      List<Point> points = new ArrayList<>();
      for (ElkEdgeSection section : elk.getSections()) {
        points.add(new Point(section.getStartX(), section.getStartY()));
        for (ElkBendPoint bend : section.getBendPoints()) {
          points.add(new Point(bend.getX(), bend.getY()));
        }
        points.add(new Point(section.getEndX(), section.getEndY()));
      }
      Box label = elk.getLabels().isEmpty() ? null : new Box(elk.getLabels().get(0).getX(), elk.getLabels().get(0).getY(),
          elk.getLabels().get(0).getWidth(), elk.getLabels().get(0).getHeight());
      routes.add(new Route(edge, points, label));
    });
    return new Placed(root.getWidth(), root.getHeight(), boxes, routes);
  }

  /** The text lines of a node's box: its name, its kind, the latest update's state and figures, its next refresh. */
  static List<String> lines(PipelineView.Node node) {
    List<String> lines = new ArrayList<>(List.of(node.name(), node.kind()));
    node.state().ifPresent(state -> lines.add(state + node.figures().map(f -> " · " + f).orElse("")));
    node.nextRefresh().ifPresent(technique -> lines.add("next refresh: " + technique));
    return lines;
  }
}
