package io.sluice.eventlog;

/** Severity of an event; METRICS marks per-batch measurements. */
public enum EventLevel {
  INFO, WARN, ERROR, METRICS
}
