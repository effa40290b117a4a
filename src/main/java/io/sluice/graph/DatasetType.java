package io.sluice.graph;

/** The kinds of dataset a pipeline defines, sinks among them: what flows write into. */
public enum DatasetType {
  STREAMING_TABLE("streaming table"),
  MATERIALIZED_VIEW("materialized view"),
  TEMPORARY_VIEW("temporary view"),
  PERSISTED_VIEW("view"),
  /** An output outside the pipeline's tables, written by append flows only (SEMANTICS §9). */
  SINK("sink");

  private final String label;

  DatasetType(String label) {
    this.label = label;
  }

  /** Whether Sluice stores this dataset as a Delta table. */
  public boolean isTable() {
    return this == STREAMING_TABLE || this == MATERIALIZED_VIEW;
  }

  public boolean isView() {
    return this == TEMPORARY_VIEW || this == PERSISTED_VIEW;
  }

  @Override
  public String toString() {
    return label;
  }
}
