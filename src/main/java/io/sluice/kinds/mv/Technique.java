package io.sluice.kinds.mv;

/**
 * The ways a refresh can bring a materialized view up to date, named as Lakeflow's event log names
 * them; the incremental ones from the narrowest (the fewest queries it fits) to the most general.
 */
enum Technique {
  /** No input changed: nothing to do, no Spark job. */
  NO_OP,
  /**
   * A top-level GROUP BY over one input, the view partitioned by group keys that are the input's
   * partition columns, after any change (no change data feed needed): the partitions the change
   * touches, as its log lists them, are recomputed from the input's partitions alone ({@link
   * ChangedPartitions}) and replace the view's.
   */
  PARTITION_OVERWRITE,
  /**
   * Inputs only appended, and the query's change takes no row away (projections, filters, UNION
   * ALL, joins on their preserved side): the rows it gains are appended.
   */
  APPEND_ONLY,
  /**
   * Projections, filters, UNION ALL and joins of every kind after any change (deletes and updates
   * read from the inputs' change data feeds): the rows the query gains and loses ({@link
   * ChangePlan}), counted by value, replace the view's rows of those values.
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
  /**
   * Window functions with PARTITION BY (under the row-wise operators of {@link #ROW_BASED}): the
   * partitions a change touches are recomputed before and after it, and their rows replaced as
   * {@link #ROW_BASED} replaces rows.
   */
  WINDOW_FUNCTION,
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
