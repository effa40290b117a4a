package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;

/**
 * Collects the clauses of one AUTO CDC flow, from SQL or from the Java API, and checks on
 * {@link #build} (a change feed) or {@link #buildFromSnapshot} (snapshots) that they fit
 * together, before any query is analysed.
 */
public final class AutoCdcBuilder {
  private List<String> keys = List.of();
  private Column sequence;
  private String deleteWhen;
  private String truncateWhen;
  private ColumnSelection columns;
  private int scdType = 1;
  private ColumnSelection trackHistory;
  private ColumnSelection ignoreNullUpdates;
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
    checkTypeAndKeys(name, origin);
    if (sequence == null) {
      throw new GraphException(ErrorClass.AUTO_CDC_WITHOUT_SEQUENCE, origin,
          name + " needs SEQUENCE BY: the column (or STRUCT of columns) that orders each key's events");
    }
    if (truncateWhen != null && scdType == 2) {
      throw new GraphException(ErrorClass.AUTO_CDC_TRUNCATE_WITH_SCD2, origin,
          name + ": APPLY AS TRUNCATE WHEN is for SCD type 1 only; a type 2 table keeps its history");
    }
    return new FlowMode.AutoCdc(keys, sequence, Optional.ofNullable(deleteWhen), Optional.ofNullable(truncateWhen),
        columns == null ? ColumnSelection.ALL : columns, ScdType.of(scdType), trackHistory(),
        ignoreNullUpdates == null ? ColumnSelection.NONE : ignoreNullUpdates, once);
  }

  /**
   * The mode of an AUTO CDC FROM SNAPSHOT flow, or a {@link GraphException} naming a clause
   * that has no meaning for snapshots: their versions order them, and every column is kept.
   *
   * @param versions the versioned snapshots, or empty for a periodic flow
   */
  public FlowMode.AutoCdcFromSnapshot buildFromSnapshot(
      DatasetName flow, Origin origin, Optional<SnapshotSource> versions) {
    String name = "AUTO CDC FROM SNAPSHOT flow '" + flow + "'";
    checkTypeAndKeys(name, origin);
    String misplaced = sequence != null ? "SEQUENCE BY"
        : deleteWhen != null ? "APPLY AS DELETE WHEN"
        : truncateWhen != null ? "APPLY AS TRUNCATE WHEN"
        : columns != null ? "COLUMNS"
        : ignoreNullUpdates != null ? "IGNORE NULL UPDATES"
        : null;
    if (misplaced != null) {
      throw new GraphException(ErrorClass.SNAPSHOT_CLAUSE, origin, name + ": " + misplaced + " has no meaning for snapshots;"
          + " a snapshot's version orders it, a key missing from it is deleted, and it keeps all its columns");
    }
    return new FlowMode.AutoCdcFromSnapshot(keys, ScdType.of(scdType), trackHistory(), once, versions);
  }

  private void checkTypeAndKeys(String name, Origin origin) {
    if (keys.isEmpty()) {
      throw new GraphException(ErrorClass.AUTO_CDC_WITHOUT_KEYS, origin, name + " names no key column: KEYS (key, ...)");
    }
    if (scdType != 1 && scdType != 2) {
      throw new GraphException(ErrorClass.AUTO_CDC_INVALID_SCD_TYPE, origin,
          name + ": STORED AS SCD TYPE takes 1 or 2, not " + scdType);
    }
    if (trackHistory != null && scdType == 1) {
      throw new GraphException(ErrorClass.AUTO_CDC_TRACK_HISTORY_WITH_SCD1, origin,
          name + ": TRACK HISTORY needs STORED AS SCD TYPE 2; a type 1 table keeps no history");
    }
  }

  private ColumnSelection trackHistory() {
    return trackHistory == null ? ColumnSelection.ALL : trackHistory;
  }
}
