package io.sluice.kinds.mv;

/** The ways a refresh can bring a materialized view up to date, named as Lakeflow's event log names them. */
enum Technique {
  /** No input changed: nothing to do, no Spark job. */
  NO_OP,
  /** Inputs only appended, and the query takes new rows alone: its rows over the new rows are appended. */
  APPEND_ONLY,
  /**
   * Projections, filters and UNION ALL after deletes and updates (read from the inputs' change
   * data feeds): the rows the change adds and takes away, counted by value, replace the view's
   * rows of those values.
   */
  ROW_BASED,
  /** A top-level GROUP BY of count, sum, min, max over appended rows: the touched groups are merged. */
  GROUP_AGGREGATE,
  /**
   * A top-level GROUP BY over one input whose keys are its columns, any aggregates, after appends,
   * deletes or updates (read from the input's change data feed): the groups the change touches are
   * recomputed from the input's rows of those groups and replace the view's.
   */
  GENERIC_AGGREGATE,
  /** The query run afresh over the whole inputs, replacing every row. */
  COMPLETE_RECOMPUTE;

  /** As the planning event spells it: {@code MAINTENANCE_TYPE_GROUP_AGGREGATE}. */
  String maintenanceType() {
    return "MAINTENANCE_TYPE_" + name();
  }

  /** Whether it brings the view up to date from the change alone. */
  boolean incremental() {
    return this != NO_OP && this != COMPLETE_RECOMPUTE;
  }
}
