package io.sluice.testing;

import io.sluice.Origin;
import io.sluice.eventlog.FlowState;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What one check of an update requires, and where the test says so. */
public sealed interface TableExpectation {
  /** What the check reads: a dataset, a flow, an expectation, or for {@link NoRows} the check's name. */
  String dataset();

  Origin origin();

  /**
   * The dataset holds exactly these rows, compared on the columns they name (as a multiset,
   * or in order when {@code ordered}).
   */
  record Rows(String dataset, Origin origin, List<Map<String, Object>> rows, boolean ordered) implements TableExpectation {
    public Rows {
      rows = List.copyOf(rows);
    }
  }

  /** The dataset holds this many rows. */
  record Count(String dataset, Origin origin, long count) implements TableExpectation {}

  /** A query over the pipeline's tables that must return no rows. */
  record NoRows(String dataset, Origin origin, String sql) implements TableExpectation {}

  /**
   * This many rows failed the expectation in the update: {@code dataset} is the expectation's
   * name, or {@code table.name} when two datasets have one of that name.
   */
  record FailedRows(String dataset, Origin origin, long failed) implements TableExpectation {
    /** Whether {@code asked} names the expectation {@code expectation} of {@code table}. */
    static boolean names(String asked, String table, String expectation) {
      String lower = asked.toLowerCase(Locale.ROOT);
      return lower.equals(expectation.toLowerCase(Locale.ROOT)) || lower.equals((table + "." + expectation).toLowerCase(Locale.ROOT));
    }
  }

  /**
   * The update left the flow (or every flow into the dataset) of this name in {@code state};
   * for {@link FlowState#FAILED}, with the error class {@code error} when given.
   */
  record State(String dataset, Origin origin, FlowState state, Optional<String> error) implements TableExpectation {}

  /** The update made no new version of the table. */
  record Unchanged(String dataset, Origin origin) implements TableExpectation {}
}
