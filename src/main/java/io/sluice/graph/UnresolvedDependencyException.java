package io.sluice.graph;

/** Thrown by a read of a dataset whose own flows are not resolved yet; resolution retries later. */
public final class UnresolvedDependencyException extends RuntimeException {
  private final DatasetName dataset;

  public UnresolvedDependencyException(DatasetName dataset) {
    super("not resolved yet: " + dataset, null, false, false);
    this.dataset = dataset;
  }

  public DatasetName dataset() {
    return dataset;
  }
}
