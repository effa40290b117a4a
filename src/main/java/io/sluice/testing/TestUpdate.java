package io.sluice.testing;

import java.util.List;

/**
 * One update of a test: the rows that arrived at each source since the last update, then what
 * the pipeline's tables must hold.
 *
 * @param number 1 for a test's first update
 */
public record TestUpdate(int number, List<GivenRows> given, List<TableExpectation> expectations) {
  public TestUpdate {
    given = List.copyOf(given);
    expectations = List.copyOf(expectations);
  }
}
