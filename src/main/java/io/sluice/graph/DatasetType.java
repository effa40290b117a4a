package io.sluice.graph;

/** The kinds of dataset a pipeline defines. */
public enum DatasetType {
  STREAMING_TABLE("streaming table"),
  MATERIALIZED_VIEW("materialized view"),
  TEMPORARY_VIEW("temporary view"),
  PERSISTED_VIEW("view");

  private final String label;

  DatasetType(String label) {
    this.label = label;
  }

  /** Whether Sluice stores this dataset as a Delta table. */
  public boolean isTable() {
    return this == STREAMING_TABLE || this == MATERIALIZED_VIEW;
  }

  public boolean isView() {
    return !isTable();
  }

  @Override
  public String toString() {
    return label;
  }
}
