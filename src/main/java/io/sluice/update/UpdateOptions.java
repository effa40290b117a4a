package io.sluice.update;

import java.util.List;

/**
 * What one update should do (SEMANTICS §1.6).
 *
 * @param fullRefreshAll clear every table that allows it, then reprocess all input
 * @param fullRefresh tables to clear and reprocess
 * @param refresh tables to update; empty with an empty {@code fullRefresh} means all
 */
public record UpdateOptions(boolean fullRefreshAll, List<String> fullRefresh, List<String> refresh) {
  public static final UpdateOptions DEFAULT = new UpdateOptions(false, List.of(), List.of());

  public UpdateOptions {
    fullRefresh = List.copyOf(fullRefresh);
    refresh = List.copyOf(refresh);
  }
}
