package io.sluice.api;

/**
 * Declares an AUTO CDC FROM SNAPSHOT flow (SEMANTICS §5), the Java form of {@code CREATE FLOW
 * f AS AUTO CDC INTO t FROM SNAPSHOT ... KEYS (...)}: each snapshot of the source is compared
 * with the target, and only the keys that changed are written.
 *
 * <pre>{@code
 * p.streamingTable("customers").schema("id INT, name STRING, city STRING, __START_AT BIGINT, __END_AT BIGINT").create();
 * p.autoCdcFromSnapshotFlow("customers_history").into("customers")
 *     .source(Long.class, (ctx, last) -> nextSnapshot(ctx, last))
 *     .keys("id")
 *     .storedAsScdType(2)
 *     .create();
 * }</pre>
 *
 * <p>A function source produces its snapshots only when the flow runs, so the target must
 * declare its columns (with {@code __START_AT} and {@code __END_AT} of the version's type for
 * SCD type 2).
 */
public interface AutoCdcFromSnapshotFlowBuilder {
  /** The streaming table the snapshots are applied to. Required. */
  AutoCdcFromSnapshotFlowBuilder into(String target);

  /** A table or view read whole on every update, versioned by the update's start time (§5.1). */
  AutoCdcFromSnapshotFlowBuilder source(String table);

  /**
   * Versioned snapshots from a function (§5.2), called until it returns nothing.
   *
   * @param versionType the class of the versions, e.g. {@code Long.class} or {@code String.class}
   */
  <V extends Comparable<? super V>> AutoCdcFromSnapshotFlowBuilder source(
      Class<V> versionType, SnapshotFunction<V> snapshots);

  /** The key columns of the snapshots. Required. */
  AutoCdcFromSnapshotFlowBuilder keys(String... keys);

  /** 1 (the default: the latest row per key) or 2 (history, with {@code __START_AT} and {@code __END_AT}). */
  AutoCdcFromSnapshotFlowBuilder storedAsScdType(int type);

  /** SCD type 2: only a change in these columns opens a new version. Default: all. */
  AutoCdcFromSnapshotFlowBuilder trackHistoryOn(String... columns);

  /** SCD type 2: a change in any column but these opens a new version. */
  AutoCdcFromSnapshotFlowBuilder trackHistoryExcept(String... columns);

  /** Processes a single snapshot, then skips the flow until a full refresh. */
  AutoCdcFromSnapshotFlowBuilder once();

  /** Registers the flow; a missing or conflicting setting fails here, naming the caller's line. */
  void create();
}
