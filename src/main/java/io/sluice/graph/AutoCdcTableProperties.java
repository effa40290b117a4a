package io.sluice.graph;

import java.time.Duration;

/** The table properties that tune an AUTO CDC target. */
public final class AutoCdcTableProperties {
  /** How long (seconds) an SCD type 1 delete is remembered against late upserts (SEMANTICS §4.2). */
  public static final String TOMBSTONE_GC_THRESHOLD = "pipelines.cdc.tombstoneGCThresholdInSeconds";
  private static final Duration DEFAULT_TOMBSTONE_GC_THRESHOLD = Duration.ofDays(2);

  private AutoCdcTableProperties() {}

  public static Duration tombstoneThreshold(DatasetDefinition table) {
    String value = table.properties().get(TOMBSTONE_GC_THRESHOLD);
    if (value == null) {
      return DEFAULT_TOMBSTONE_GC_THRESHOLD;
    }
    try {
      long seconds = Long.parseLong(value.trim());
      if (seconds >= 0) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new GraphException("INVALID_TABLE_PROPERTY", table.origin(), "'" + table.name() + "': "
        + TOMBSTONE_GC_THRESHOLD + " must be a whole number of seconds, not '" + value + "'");
  }
}
