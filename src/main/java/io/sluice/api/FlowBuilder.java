package io.sluice.api;

/** Declares an append flow: {@code pipeline.appendFlow("f").into("t").query(ctx -> ...)}. */
public interface FlowBuilder {
  FlowBuilder into(String target);

  void query(FlowFunction query);
}
