package io.sluice.cli;

import io.sluice.eventlog.EventListener;
import io.sluice.eventlog.EventType;
import io.sluice.eventlog.PipelineEvent;
import io.sluice.update.FlowOutcome;
import io.sluice.update.UpdateResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The terminal view of {@code sluice run}: flow states and batches as they happen (only on
 * a terminal), and a one-screen summary per dataset at the end (always).
 */
final class ConsoleReporter implements EventListener {
  private final PrintWriter out;
  private final boolean live;

  ConsoleReporter(PrintWriter out, boolean live) {
    this.out = out;
    this.live = live;
  }

  @Override
  public void onEvent(PipelineEvent event) {
    if (!live) {
      return;
    }
    if (event.type() == EventType.FLOW_PROGRESS) {
      String flow = event.flowName().orElse("");
      Object state = event.details().get("state");
      String what = state != null ? String.valueOf(state) : event.message();
      if (!"QUEUED".equals(what)) {
        out.printf("  %-28s %s%n", flow, what);
      }
    } else if (event.type() == EventType.UPDATE_PROGRESS) {
      out.println(event.message());
    }
    out.flush();
  }

  void printSummary(String pipeline, UpdateResult result) {
    out.printf("%nPipeline '%s' update %s %s in %s%n", pipeline, result.updateId().substring(0, 8),
        result.succeeded() ? "COMPLETED" : "FAILED", seconds(result.duration()));
    out.printf("%-36s %-18s %-10s %8s %13s %8s %9s%n",
        "dataset", "type", "state", "batches", "rows written", "dropped", "duration");
    for (FlowOutcome flow : result.flows()) {
      String name = flow.flow().equals(flow.dataset()) ? flow.dataset() : flow.dataset() + " <- " + flow.flow();
      out.printf("%-36s %-18s %-10s %8d %13d %8d %9s%n", name, flow.datasetType(), flow.state(), flow.batches(),
          flow.rowsWritten(), flow.rowsDropped(), seconds(flow.duration()));
      if (!flow.kindMetrics().isEmpty()) {
        out.println("    " + flow.kindMetrics().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .map(e -> e.getKey().replace('_', ' ') + " " + e.getValue()).collect(Collectors.joining(", ")));
      }
    }
    result.warnings().forEach(w -> out.println("warning: " + w));
    out.flush();
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }
}
