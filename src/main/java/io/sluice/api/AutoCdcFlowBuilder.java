package io.sluice.api;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/**
 * Declares an AUTO CDC flow (SEMANTICS §4), the Java form of {@code CREATE FLOW f AS AUTO CDC
 * INTO t FROM STREAM(src) KEYS (...) SEQUENCE BY ...}; the same clauses, checked the same way.
 *
 * <pre>{@code
 * p.streamingTable("users").create();
 * p.autoCdcFlow("users_flow").into("users").source("users_cdc")
 *     .keys("userId")
 *     .applyAsDeleteWhen("operation = 'DELETE'")
 *     .sequenceBy("sequenceNum")
 *     .columnsExcept("operation", "sequenceNum")
 *     .storedAsScdType(2)
 *     .create();
 * }</pre>
 *
 * <p>Calling a method again replaces what the earlier call set. {@link #create} checks the
 * clauses; the source's columns are checked with the rest of the graph, before any data is
 * written.
 */
public interface AutoCdcFlowBuilder {
  /** The streaming table the changes are applied to. Required. */
  AutoCdcFlowBuilder into(String target);

  /** The change feed: read as a stream, or as a batch when {@link #once()}. Required. */
  AutoCdcFlowBuilder source(String table);

  /** The key columns of the source. Required. */
  AutoCdcFlowBuilder keys(String... keys);

  /** The column that orders each key's events. Required, or its expression form. */
  default AutoCdcFlowBuilder sequenceBy(String column) {
    return sequenceBy(functions.col(column));
  }

  /** Orders each key's events by an expression; {@code struct(col("a"), col("b"))} orders by a, then b. */
  AutoCdcFlowBuilder sequenceBy(Column expr);

  /** A SQL condition on a source row that makes it a delete. */
  AutoCdcFlowBuilder applyAsDeleteWhen(String condition);

  /** A SQL condition on a source row that empties the target (SCD type 1 only). */
  AutoCdcFlowBuilder applyAsTruncateWhen(String condition);

  /** Keeps only these source columns (and the keys must be among them). Default: all. */
  AutoCdcFlowBuilder columns(String... columns);

  /** Keeps every source column but these. */
  AutoCdcFlowBuilder columnsExcept(String... columns);

  /** 1 (the default: the latest row per key) or 2 (history, with {@code __START_AT} and {@code __END_AT}). */
  AutoCdcFlowBuilder storedAsScdType(int type);

  /** SCD type 2: only a change in these columns opens a new version. Default: all. */
  AutoCdcFlowBuilder trackHistoryOn(String... columns);

  /** SCD type 2: a change in any column but these opens a new version. */
  AutoCdcFlowBuilder trackHistoryExcept(String... columns);

  /** A NULL in an upsert keeps the stored value, in every column. */
  AutoCdcFlowBuilder ignoreNullUpdates();

  /** A NULL in an upsert keeps the stored value, in these columns. */
  AutoCdcFlowBuilder ignoreNullUpdatesOn(String... columns);

  /** A NULL in an upsert keeps the stored value, in every column but these. */
  AutoCdcFlowBuilder ignoreNullUpdatesExcept(String... columns);

  /** Reads the source once, as a batch, instead of as a stream ({@code AUTO CDC ONCE}). */
  AutoCdcFlowBuilder once();

  /** Registers the flow; a missing or conflicting clause fails here, naming the caller's line. */
  void create();
}
