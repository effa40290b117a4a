package io.sluice.api;

/** Declares a temporary view: a named query other flows read, not stored. */
public interface ViewBuilder {
  ViewBuilder comment(String comment);

  void query(FlowFunction query);
}
