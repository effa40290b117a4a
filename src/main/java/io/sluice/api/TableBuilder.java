package io.sluice.api;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/** Declares a streaming table or materialized view. Finish with {@link #query} or {@link #create}. */
public interface TableBuilder {
  /** Declared columns in Spark DDL, e.g. {@code "id BIGINT, name STRING"}. */
  TableBuilder schema(String ddl);

  TableBuilder comment(String comment);

  TableBuilder partitionBy(String... columns);

  TableBuilder clusterBy(String... columns);

  TableBuilder property(String key, String value);

  /**
   * How a materialized view refreshes, as SQL's {@code REFRESH POLICY} clause spells it:
   * {@code "AUTO"} (the default), {@code "INCREMENTAL"}, {@code "INCREMENTAL STRICT"} or {@code "FULL"}.
   */
  TableBuilder refreshPolicy(String policy);

  /** Keeps violating rows and counts them. */
  TableBuilder expect(String name, String condition);

  /** Drops violating rows before they are written, and counts them. */
  TableBuilder expectOrDrop(String name, String condition);

  /** Fails the flow on the first violating row; nothing of that batch is written. */
  TableBuilder expectOrFail(String name, String condition);

  TableBuilder expectAll(Map<String, String> conditionsByName);

  TableBuilder expectAllOrDrop(Map<String, String> conditionsByName);

  TableBuilder expectAllOrFail(Map<String, String> conditionsByName);

  /** Makes the defining query a REPLACE USING flow: the highest sequence per key wins. */
  default TableBuilder replaceUsing(List<String> keys, String sequenceColumn) {
    return replaceUsing(keys, functions.col(sequenceColumn));
  }

  /** The same, sequenced by an expression, e.g. {@code struct(col("day"), col("version"))}. */
  TableBuilder replaceUsing(List<String> keys, Column sequence);

  /** Registers the dataset with its defining query (its implicit flow). */
  void query(FlowFunction query);

  /** Registers the dataset alone: flows declared with {@link Pipeline#flow} or {@link Pipeline#autoCdcFlow} fill it. */
  void create();
}
