package io.sluice.testing;

import io.sluice.Origin;
import java.time.Duration;
import java.util.List;

/**
 * How one test ended: passed when it has no failures; each failure names its update and the
 * check's place in the test file, then what differed.
 *
 * @param kept the test's folder, kept when it failed so that its tables can be looked at; null when removed
 */
public record TestOutcome(String name, Origin origin, Duration took, List<String> failures, String kept) {
  public TestOutcome {
    failures = List.copyOf(failures);
  }

  /** How a failure starts: the update, the check and its place, before what differs (on the next line when that is a table). */
  static String place(int update, TableExpectation check, String failure) {
    return "update " + update + ", " + check.dataset() + " (" + check.origin() + "):" + (failure.startsWith("\n") ? "" : " ") + failure;
  }

  public boolean passed() {
    return failures.isEmpty();
  }
}
