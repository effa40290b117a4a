package io.sluice.testing;

import io.sluice.Origin;
import java.util.List;

/**
 * One test of a pipeline: a sequence of updates, each given rows for some sources and checked
 * afterwards.
 *
 * @param origin where the test starts in its file
 */
public record PipelineTestCase(String name, Origin origin, List<TestUpdate> updates) {
  public PipelineTestCase {
    updates = List.copyOf(updates);
  }
}
