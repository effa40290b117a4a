package io.sluice.graph;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How a materialized view refreshes: its {@code REFRESH POLICY} clause, as Databricks SQL writes
 * it (docs/sql.md, "How a materialized view refreshes").
 */
public enum RefreshPolicy {
  /** By cost: incremental when a technique applies and is cheaper than a full recompute. */
  AUTO("AUTO"),
  /** Incremental whenever a technique applies; a query that can never be is refused. */
  INCREMENTAL("INCREMENTAL"),
  /** As {@link #INCREMENTAL}, and a refresh that cannot be incremental fails. */
  INCREMENTAL_STRICT("INCREMENTAL STRICT"),
  /** Always a full recompute. */
  FULL("FULL");

  private final String sql;

  RefreshPolicy(String sql) {
    this.sql = sql;
  }

  /** As the clause spells it: {@code INCREMENTAL STRICT}. */
  public String sql() {
    return sql;
  }

  /** The policy {@code text} spells as the clause does, in any case and spacing; empty for none. */
  public static Optional<RefreshPolicy> parse(String text) {
    String words = text == null ? "" : String.join(" ", text.trim().toUpperCase(Locale.ROOT).split("\\s+"));
    return Arrays.stream(values()).filter(p -> p.sql.equals(words)).findFirst();
  }

  /** Whether the definition asks for incremental refreshes: the query must allow one. */
  public boolean requiresIncremental() {
    return this == INCREMENTAL || this == INCREMENTAL_STRICT;
  }
}
