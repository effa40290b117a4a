package io.sluice.report;

import static io.sluice.report.SvgDrawing.escape;

import io.sluice.eventlog.UpdateHistory.ExpectationFigures;
import io.sluice.eventlog.UpdateHistory.FlowRecord;
import io.sluice.eventlog.UpdateHistory.UpdateRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code sluice report}: one self-contained HTML page (styles, pictures and its one script
 * inline; nothing fetched) with the pipeline's graph, its recent updates and charts of them,
 * and per flow of the latest update its batches, rows, kind counts and expectations.
 */
public final class HtmlReport {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());
  private static final String STYLE = """
      body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #263238; }
      h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; }
      .muted { color: #607d8b; font-size: 13px; }
      table { border-collapse: collapse; font-size: 13px; margin-top: 8px; }
      th, td { border-bottom: 1px solid #e0e6ea; padding: 4px 10px; text-align: left; vertical-align: top; }
      td.n { text-align: right; font-variant-numeric: tabular-nums; }
      tr.highlight td { background: #fff8e1; }
      .state-COMPLETED { color: #2e7d32; } .state-FAILED { color: #c62828; font-weight: bold; }
      td.error { color: #c62828; font-family: monospace; font-size: 12px; white-space: pre-wrap; }
      .graph { overflow-x: auto; border: 1px solid #e0e6ea; padding: 8px; }
      .graph g.node { cursor: pointer; } .graph g.node.selected rect { stroke-width: 3; }
      .charts { display: flex; gap: 32px; flex-wrap: wrap; }
      .chart text { font-size: 10px; fill: #546e7a; }
      """;
  // Clicking a dataset in the graph marks its flows in the tables below.
  private static final String SCRIPT = """
      (function () {
        var nodes = document.querySelectorAll('.graph g.node');
        nodes.forEach(function (node) {
          node.addEventListener('click', function () {
            var name = node.getAttribute('data-name');
            nodes.forEach(function (n) { n.classList.toggle('selected', n === node); });
            document.querySelectorAll('tr[data-dataset]').forEach(function (row) {
              row.classList.toggle('highlight', row.getAttribute('data-dataset') === name);
            });
          });
        });
        document.body.setAttribute('data-ready', 'true');
      })();
      """;

  private HtmlReport() {}

  /** The page for {@code view} and {@code updates} (oldest first), made at {@code now}. */
  public static String write(PipelineView view, List<UpdateRecord> updates, Instant now) {
    StringBuilder html = new StringBuilder();
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>").append(escape("Sluice pipeline " + view.pipeline())).append("</title>")
        .append("<style>").append(STYLE).append("</style></head>\n<body>\n");
    html.append("<h1>Pipeline ").append(escape(view.pipeline())).append("</h1>\n");
    html.append("<div class=\"muted\">report made ").append(TIME.format(now)).append("; ")
        .append(updates.isEmpty() ? "no update yet" : updates.size() + " recent update(s)").append("</div>\n");
    html.append("<h2>Graph</h2>\n<div class=\"graph\">").append(SvgDrawing.draw(view)).append("</div>\n");
    if (!updates.isEmpty()) {
      updates(html, updates);
      latest(html, updates.get(updates.size() - 1), updates);
    }
    html.append("<script>").append(SCRIPT).append("</script>\n</body></html>\n");
    return html.toString();
  }

  private static void updates(StringBuilder html, List<UpdateRecord> updates) {
    html.append("<h2>Recent updates</h2>\n<div class=\"charts\">")
        .append(barChart("duration (s)", updates, u -> u.duration().toMillis() / 1000.0))
        .append(barChart("rows written", updates, u -> u.flows().stream().mapToLong(FlowRecord::rowsWritten).sum()))
        .append("</div>\n<table class=\"updates\"><tr><th>update</th><th>started</th><th>state</th><th>duration</th><th>rows written</th><th>error</th></tr>\n");
    for (int i = updates.size() - 1; i >= 0; i--) {
      UpdateRecord update = updates.get(i);
      html.append("<tr><td>").append(update.updateId(), 0, 8).append("</td><td>").append(TIME.format(update.start()))
          .append("</td><td class=\"state-").append(escape(update.state())).append("\">").append(escape(update.state()))
          .append("</td><td class=\"n\">").append(seconds(update.duration()))
          .append("</td><td class=\"n\">").append(number(update.flows().stream().mapToLong(FlowRecord::rowsWritten).sum()))
          .append("</td><td class=\"error\">").append(escape(update.error().orElse(""))).append("</td></tr>\n");
    }
    html.append("</table>\n");
  }

  private static void latest(StringBuilder html, UpdateRecord latest, List<UpdateRecord> updates) {
    html.append("<h2>Flows of the latest update (").append(latest.updateId(), 0, 8).append(")</h2>\n")
        .append("<table class=\"flows\"><tr><th>flow</th><th>into</th><th>state</th><th>batches</th><th>rows written</th>")
        .append("<th>duration</th><th>rows over recent updates</th><th>plan and counts of its kind</th></tr>\n");
    for (FlowRecord flow : latest.flows()) {
      List<Double> history = updates.stream().map(u -> (double) u.flows().stream().filter(f -> f.flow().equals(flow.flow()))
          .mapToLong(FlowRecord::rowsWritten).sum()).toList();
      html.append("<tr data-dataset=\"").append(escape(flow.dataset())).append("\"><td>").append(escape(flow.flow()))
          .append("</td><td>").append(escape(flow.dataset()))
          .append("</td><td class=\"state-").append(escape(flow.state())).append("\">").append(escape(flow.state()))
          .append("</td><td class=\"n\">").append(flow.batches())
          .append("</td><td class=\"n\">").append(number(flow.rowsWritten()))
          .append("</td><td class=\"n\">").append(seconds(flow.duration()))
          .append("</td><td>").append(sparkline(history))
          .append("</td><td>").append(escape(counts(flow))).append("</td></tr>\n");
      flow.error().ifPresent(error -> html.append("<tr data-dataset=\"").append(escape(flow.dataset()))
          .append("\"><td></td><td colspan=\"7\" class=\"error\">").append(escape(error)).append("</td></tr>\n"));
    }
    html.append("</table>\n");
    List<String> rows = new ArrayList<>();
    for (FlowRecord flow : latest.flows()) {
      for (Map.Entry<String, ExpectationFigures> e : flow.expectations().entrySet()) {
        rows.add("<tr data-dataset=\"" + escape(flow.dataset()) + "\"><td>" + escape(flow.dataset()) + "</td><td>"
            + escape(flow.flow()) + "</td><td>" + escape(e.getKey()) + "</td><td class=\"n\">" + number(e.getValue().passed())
            + "</td><td class=\"n" + (e.getValue().failed() > 0 ? " state-FAILED" : "") + "\">" + number(e.getValue().failed())
            + "</td></tr>\n");
      }
    }
    if (!rows.isEmpty()) {
      html.append("<h2>Expectations</h2>\n<table class=\"expectations\"><tr><th>dataset</th><th>flow</th><th>expectation</th>")
          .append("<th>passed</th><th>failed</th></tr>\n");
      rows.forEach(html::append);
      html.append("</table>\n");
    }
  }

  /** How the flow planned (a view's refresh), the flow kind's own counts (keys replaced, upserts, ...), the rows with rescued data. */
  private static String counts(FlowRecord flow) {
    List<String> parts = new ArrayList<>(flow.planned().stream().toList());
    parts.addAll(flow.kindMetrics().entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey().replace('_', ' ') + " " + number(e.getValue())).toList());
    if (flow.rowsRescued() > 0) {
      parts.add("rows with rescued data " + number(flow.rowsRescued()));
    }
    return String.join(", ", parts);
  }

  private static String barChart(String title, List<UpdateRecord> updates, ToDoubleFunction<UpdateRecord> value) {
    double width = 280;
    double height = 110;
    double top = 18;
    double max = updates.stream().mapToDouble(value).max().orElse(0);
    double bar = Math.min(28, (width - 10) / updates.size());
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\"><text x=\"0\" y=\"11\">%s (latest %s)</text>",
        width, height, escape(title), format(value.applyAsDouble(updates.get(updates.size() - 1)))));
    for (int i = 0; i < updates.size(); i++) {
      double v = value.applyAsDouble(updates.get(i));
      double h = max == 0 ? 0 : (height - top - 4) * v / max;
      svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#5c8fbf\">"
              + "<title>%s: %s</title></rect>", i * bar + 2, height - h, bar - 4, h,
          updates.get(i).updateId().substring(0, 8), format(v)));
    }
    return svg.append("</svg>").toString();
  }

  private static String sparkline(List<Double> values) {
    double width = 90;
    double height = 20;
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    String points = values.isEmpty() ? "" : pointsOf(values, width, height, max);
    String last = points.isEmpty() ? "" : points.substring(points.lastIndexOf(' ') + 1);
    String dot = last.isEmpty() ? "" : "<circle cx=\"" + last.split(",")[0] + "\" cy=\"" + last.split(",")[1]
        + "\" r=\"2.5\" fill=\"#5c8fbf\"/>";
    return "<svg class=\"sparkline\" width=\"" + (int) width + "\" height=\"" + (int) height + "\"><polyline points=\"" + points
        + "\" fill=\"none\" stroke=\"#5c8fbf\" stroke-width=\"1.5\"/>" + dot + "</svg>";
  }

  private static String pointsOf(List<Double> values, double width, double height, double max) {
    List<String> points = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      // 3 pixels of margin, so the dot on the last value is never cut.
      double x = values.size() == 1 ? width / 2 : 3 + i * (width - 6) / (values.size() - 1);
      double y = max == 0 ? height - 3 : height - 3 - (height - 6) * values.get(i) / max;
      points.add(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
    }
    return String.join(" ", points);
  }

  private static String format(double value) {
    return value == Math.rint(value) ? number((long) value) : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String number(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }
}
