package io.sluice.execution;

/** Runs one kind of flow to completion for one triggered update. */
@FunctionalInterface
public interface FlowExecutor {
  void execute(FlowRun run);
}
