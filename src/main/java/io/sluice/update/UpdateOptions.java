package io.sluice.update;

import java.util.List;

/**
 * What one update should do (SEMANTICS §1.6, §10.1).
 *
 * @param fullRefreshAll clear every table that allows it, then reprocess all input
 * @param fullRefresh tables to clear and reprocess
 * @param refresh tables to update; empty with an empty {@code fullRefresh} means all
 * @param continuous keep running, a round of flows per trigger interval, until asked to stop
 */
public record UpdateOptions(boolean fullRefreshAll, List<String> fullRefresh, List<String> refresh, boolean continuous) {
  public static final UpdateOptions DEFAULT = new UpdateOptions(false, List.of(), List.of());

  public UpdateOptions {
    fullRefresh = List.copyOf(fullRefresh);
    refresh = List.copyOf(refresh);
  }

  /** A triggered update: one round of the flows, then it ends. */
  public UpdateOptions(boolean fullRefreshAll, List<String> fullRefresh, List<String> refresh) {
    this(fullRefreshAll, fullRefresh, refresh, false);
  }

  /** The same update, run continuously. */
  public UpdateOptions continuously() {
    return new UpdateOptions(fullRefreshAll, fullRefresh, refresh, true);
  }
}
