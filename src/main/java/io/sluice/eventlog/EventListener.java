package io.sluice.eventlog;

/** Receives each event as it is recorded, before it is flushed: the terminal view uses this. */
@FunctionalInterface
public interface EventListener {
  void onEvent(PipelineEvent event);
}
