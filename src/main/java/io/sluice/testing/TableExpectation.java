package io.sluice.testing;

import io.sluice.Origin;
import java.util.List;
import java.util.Map;

/** What one check of an update requires, and where the test file says so. */
public sealed interface TableExpectation {
  /** The dataset the check reads, or for {@link NoRows} the check's name. */
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
}
