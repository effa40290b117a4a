package io.sluice.eventlog;

import java.util.Locale;

/** The kinds of event an update (or a maintenance) records (SEMANTICS §8, §11.1). */
public enum EventType {
  CREATE_UPDATE, UPDATE_PROGRESS, DATASET_DEFINITION, FLOW_DEFINITION, FLOW_PROGRESS, MAINTENANCE,
  /** How a materialized view's refresh was planned: the techniques weighed and the one chosen, as Lakeflow logs it. */
  PLANNING_INFORMATION;

  /** The spelling stored in the log: {@code flow_progress}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
