package io.sluice.graph;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;

/**
 * Collects the clauses of one AUTO CDC flow, from SQL or from the Java API, and checks on
 * {@link #build} that they fit together, before any query is analysed.
 */
public final class AutoCdcBuilder {
  private List<String> keys = List.of();
  private Column sequence;
  private String deleteWhen;
  private String truncateWhen;
  private ColumnSelection columns = ColumnSelection.ALL;
  private int scdType = 1;
  private ColumnSelection trackHistory;
  private ColumnSelection ignoreNullUpdates = ColumnSelection.NONE;
  private boolean once;

  public AutoCdcBuilder keys(List<String> keys) {
    this.keys = List.copyOf(keys);
    return this;
  }

  public AutoCdcBuilder sequenceBy(Column sequence) {
    this.sequence = sequence;
    return this;
  }

  public AutoCdcBuilder applyAsDeleteWhen(String condition) {
    this.deleteWhen = condition;
    return this;
  }

  public AutoCdcBuilder applyAsTruncateWhen(String condition) {
    this.truncateWhen = condition;
    return this;
  }

  public AutoCdcBuilder columns(ColumnSelection columns) {
    this.columns = columns;
    return this;
  }

  public AutoCdcBuilder storedAsScdType(int type) {
    this.scdType = type;
    return this;
  }

  public AutoCdcBuilder trackHistory(ColumnSelection columns) {
    this.trackHistory = columns;
    return this;
  }

  public AutoCdcBuilder ignoreNullUpdates(ColumnSelection columns) {
    this.ignoreNullUpdates = columns;
    return this;
  }

  public AutoCdcBuilder once(boolean once) {
    this.once = once;
    return this;
  }

  /** The flow's mode, or a {@link GraphException} naming the clause that does not fit. */
  public FlowMode.AutoCdc build(DatasetName flow, Origin origin) {
    String name = "AUTO CDC flow '" + flow + "'";
    if (keys.isEmpty()) {
      throw new GraphException("AUTO_CDC_WITHOUT_KEYS", origin, name + " names no key column: KEYS (key, ...)");
    }
    if (sequence == null) {
      throw new GraphException("AUTO_CDC_WITHOUT_SEQUENCE", origin,
          name + " needs SEQUENCE BY: the column (or STRUCT of columns) that orders each key's events");
    }
    if (scdType != 1 && scdType != 2) {
      throw new GraphException("AUTO_CDC_INVALID_SCD_TYPE", origin,
          name + ": STORED AS SCD TYPE takes 1 or 2, not " + scdType);
    }
    if (truncateWhen != null && scdType == 2) {
      throw new GraphException("AUTO_CDC_TRUNCATE_WITH_SCD2", origin,
          name + ": APPLY AS TRUNCATE WHEN is for SCD type 1 only; a type 2 table keeps its history");
    }
    if (trackHistory != null && scdType == 1) {
      throw new GraphException("AUTO_CDC_TRACK_HISTORY_WITH_SCD1", origin,
          name + ": TRACK HISTORY needs STORED AS SCD TYPE 2; a type 1 table keeps no history");
    }
    return new FlowMode.AutoCdc(keys, sequence, Optional.ofNullable(deleteWhen), Optional.ofNullable(truncateWhen),
        columns, scdType, trackHistory == null ? ColumnSelection.ALL : trackHistory, ignoreNullUpdates, once);
  }
}
