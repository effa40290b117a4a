package io.sluice.testing;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.eventlog.FlowState;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** What one check of an update requires, and where the test says so. */
public sealed interface TableExpectation {
  /** What the check reads: a dataset, a flow, an expectation, or for {@link NoRows} the check's name. */
  String dataset();

  Origin origin();

  /**
   * The dataset holds exactly these rows, compared on the columns they name (as a multiset,
   * or in order when {@code ordered}). Every row names the same columns: a column left out of
   * one row would otherwise be compared as NULL there, which no one who leaves it out means.
   */
  record Rows(String dataset, Origin origin, List<Map<String, Object>> rows, boolean ordered) implements TableExpectation {
    public Rows {
      rows = List.copyOf(rows);
      for (int i = 1; i < rows.size(); i++) {
        if (!sameColumns(rows.get(0).keySet(), rows.get(i).keySet())) {
          throw new SluiceException(ErrorClass.TEST_FILE_INVALID, origin, "the rows expected of '" + dataset + "' name different"
              + " columns: row 1 names " + String.join(", ", rows.get(0).keySet()) + ", row " + (i + 1) + " names "
              + String.join(", ", rows.get(i).keySet()) + "; every row names the same columns (null for a NULL)");
        }
      }
    }

    private static boolean sameColumns(Set<String> a, Set<String> b) {
      return a.size() == b.size() && a.stream().allMatch(x -> b.stream().anyMatch(y -> x.equalsIgnoreCase(y)));
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
