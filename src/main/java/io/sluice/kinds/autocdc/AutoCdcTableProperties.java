package io.sluice.kinds.autocdc;

import io.sluice.ErrorClass;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.GraphException;
import java.time.Duration;

/** The table properties that tune an AUTO CDC target. */
public final class AutoCdcTableProperties {
  /** How long (seconds) an SCD type 1 delete is remembered against late upserts (SEMANTICS §4.2). */
  public static final String TOMBSTONE_GC_THRESHOLD = "pipelines.cdc.tombstoneGCThresholdInSeconds";
  private static final Duration DEFAULT_TOMBSTONE_GC_THRESHOLD = Duration.ofDays(2);
  /** Every how many of its commits an SCD type 1 target's state is compacted. */
  public static final String STATE_COMPACTION_INTERVAL = "pipelines.cdc.stateCompactionInterval";
  private static final long DEFAULT_STATE_COMPACTION_INTERVAL = 50;

  private AutoCdcTableProperties() {}

  public static Duration tombstoneThreshold(DatasetDefinition table) {
    return Duration.ofSeconds(wholeNumber(table, TOMBSTONE_GC_THRESHOLD, DEFAULT_TOMBSTONE_GC_THRESHOLD.toSeconds(), 0,
        "a whole number of seconds"));
  }

  public static long stateCompactionInterval(DatasetDefinition table) {
    return wholeNumber(table, STATE_COMPACTION_INTERVAL, DEFAULT_STATE_COMPACTION_INTERVAL, 1,
        "a whole number of commits, at least 1");
  }

  private static long wholeNumber(DatasetDefinition table, String property, long fallback, long least, String what) {
    String value = table.properties().get(property);
    if (value == null) {
      return fallback;
    }
    try {
      long number = Long.parseLong(value.trim());
      if (number >= least) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new GraphException(ErrorClass.INVALID_TABLE_PROPERTY, table.origin(), "'" + table.name() + "': "
        + property + " must be " + what + ", not '" + value + "'");
  }
}
