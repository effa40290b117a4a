package io.sluice.graph;

import java.util.List;
import org.apache.spark.sql.Column;

/** How a flow writes into its target: the kinds of SEMANTICS §1.2. */
public sealed interface FlowMode {
  /** Whether the flow must read a stream (it keeps a checkpoint). */
  boolean streaming();

  /** Appends every row: the default flow of a streaming table. */
  record Append() implements FlowMode {
    @Override
    public boolean streaming() {
      return true;
    }
  }

  /**
   * Keyed, sequenced replacement (SEMANTICS §2).
   *
   * @param keys the key columns of the query's output
   * @param sequence an expression over the query's output: a column, or e.g. {@code STRUCT(a, b)}
   *     to break ties
   */
  record ReplaceUsing(List<String> keys, Column sequence) implements FlowMode {
    public ReplaceUsing {
      keys = List.copyOf(keys);
    }

    @Override
    public boolean streaming() {
      return true;
    }
  }

  /** A batch that replaces the target rows matching {@code predicate} (SEMANTICS §3). */
  record ReplaceWhere(String predicate) implements FlowMode {
    @Override
    public boolean streaming() {
      return false;
    }
  }

  FlowMode APPEND = new Append();
}
