package io.sluice.api;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/**
 * Declares a flow: {@code pipeline.flow("f").into("t").query(ctx -> ...)} appends; add
 * {@link #replaceUsing} or {@link #replaceWhere} for the other kinds.
 */
public interface FlowBuilder {
  FlowBuilder into(String target);

  /** Keyed, sequenced replacement (REPLACE USING): the highest sequence per key wins. */
  default FlowBuilder replaceUsing(List<String> keys, String sequenceColumn) {
    return replaceUsing(keys, functions.col(sequenceColumn));
  }

  /** The same, sequenced by an expression, e.g. {@code struct(col("day"), col("version"))}. */
  FlowBuilder replaceUsing(List<String> keys, Column sequence);

  /** A batch, on every update, replacing the target rows that match {@code predicate}. */
  FlowBuilder replaceWhere(String predicate);

  void query(FlowFunction query);
}
