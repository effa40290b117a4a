package io.sluice.update;

import io.sluice.graph.DatasetName;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * When each flow of a continuous update starts again: its trigger interval after it last
 * started, measured start to start as Spark's processing-time trigger does, so a flow busy
 * longer than its interval starts again at once.
 */
final class ContinuousSchedule {
  private final Map<DatasetName, Duration> intervals;
  private final Map<DatasetName, Instant> lastStarts = new HashMap<>();

  /** The schedule of {@code graph}'s flows; refuses a bad trigger interval, before anything runs. */
  static ContinuousSchedule of(SparkSession spark, ResolvedGraph graph) {
    Map<DatasetName, Duration> intervals = new HashMap<>();
    graph.flows().forEach(flow -> intervals.put(flow.name(), TriggerInterval.of(spark, graph.dataset(flow.target())).duration()));
    return new ContinuousSchedule(intervals);
  }

  /** @param intervals each flow's trigger interval, by flow name */
  ContinuousSchedule(Map<DatasetName, Duration> intervals) {
    this.intervals = Map.copyOf(intervals);
  }

  /** Whether {@code flow} is due at {@code now}; if it is, it counts as started then. */
  boolean claim(ResolvedFlow flow, Instant now) {
    Instant last = lastStarts.get(flow.name());
    if (last != null && now.isBefore(last.plus(intervals.get(flow.name())))) {
      return false;
    }
    lastStarts.put(flow.name(), now);
    return true;
  }

  /** When the next flow is due; now if one never started. */
  Instant nextDue() {
    Instant next = Instant.MAX;
    for (Map.Entry<DatasetName, Duration> flow : intervals.entrySet()) {
      Instant last = lastStarts.get(flow.getKey());
      if (last == null) {
        return Instant.now();
      }
      Instant due = last.plus(flow.getValue());
      if (due.isBefore(next)) {
        next = due;
      }
    }
    return next;
  }
}
