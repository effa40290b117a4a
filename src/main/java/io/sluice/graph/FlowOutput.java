package io.sluice.graph;

import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * What a resolved flow writes into its target, worked out from its query's columns: the
 * query's rows themselves, or (AUTO CDC and FROM SNAPSHOT) the rows that change events or
 * snapshots make, described by {@link AutoCdcColumns}.
 */
public sealed interface FlowOutput permits FlowOutput.QueryRows, AutoCdcColumns {
  /** The columns the flow writes into its target. */
  StructType targetSchema();

  /**
   * Whether the flow's batches are change events applied to the target, in the source's
   * shape, rather than rows of the target: its sink takes them so, and expectations check them so.
   */
  boolean changeEvents();

  /** What resolution accepted but warns about (SEMANTICS §5.7). */
  List<String> warnings();

  /** A flow that writes its query's rows. */
  record QueryRows(StructType targetSchema) implements FlowOutput {
    @Override
    public boolean changeEvents() {
      return false;
    }

    @Override
    public List<String> warnings() {
      return List.of();
    }
  }
}
