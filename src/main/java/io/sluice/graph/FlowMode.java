package io.sluice.graph;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;

/**
 * How a flow writes into its target: the kinds of SEMANTICS §1.2. Code that depends on the
 * kind chooses it once, through a {@link Visitor}: resolution, validation and planning each
 * implement one, and the compiler checks that every kind is covered.
 */
public sealed interface FlowMode {
  /** Whether the flow must read a stream (it keeps a checkpoint). */
  boolean streaming();

  /** Whether it appends each row of its query as it is: the only kind a sink takes. */
  default boolean appends() {
    return false;
  }

  /** Whether it writes by key, replacing a few rows per file (its target gets deletion vectors). */
  default boolean keyed() {
    return false;
  }

  /** Whether its commits update and delete rows, so streams read its target's change feed ({@link ChangeFeed}). */
  default boolean changesRows() {
    return false;
  }

  /** Whether it compares whole snapshots of its source rather than reading the source's changes (§5). */
  default boolean comparesSnapshots() {
    return false;
  }

  /** Calls the visitor's method for this kind. */
  <R> R accept(Visitor<R> visitor);

  /** One method per kind of flow. */
  interface Visitor<R> {
    R append(Append mode);

    R replaceUsing(ReplaceUsing mode);

    R replaceWhere(ReplaceWhere mode);

    R autoCdc(AutoCdc mode);

    R autoCdcFromSnapshot(AutoCdcFromSnapshot mode);
  }

  /** Appends every row: the default flow of a streaming table. */
  record Append() implements FlowMode {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.append(this);
    }

    @Override
    public boolean appends() {
      return true;
    }

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
    public <R> R accept(Visitor<R> visitor) {
      return visitor.replaceUsing(this);
    }

    @Override
    public boolean keyed() {
      return true;
    }

    @Override
    public boolean streaming() {
      return true;
    }
  }

  /** A batch that replaces the target rows matching {@code predicate} (SEMANTICS §3). */
  record ReplaceWhere(String predicate) implements FlowMode {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.replaceWhere(this);
    }

    @Override
    public boolean streaming() {
      return false;
    }
  }

  /**
   * The AUTO CDC kinds, from a change feed or from snapshots: a keyed target of SCD type 1 or
   * 2, whose commits update and delete rows.
   */
  sealed interface AutoCdcFamily extends FlowMode permits AutoCdc, AutoCdcFromSnapshot {
    List<String> keys();

    ScdType scdType();

    /** Whether the flow runs once, then not until a full refresh. */
    boolean once();

    @Override
    default boolean keyed() {
      return true;
    }

    @Override
    default boolean changesRows() {
      return true;
    }
  }

  /**
   * Applies a change feed to a keyed table, as SCD type 1 or 2 (SEMANTICS §4). Build one
   * with {@link AutoCdcBuilder}, which checks that the clauses fit together.
   *
   * @param keys the key columns of the source
   * @param sequence orders the events of one key; {@code STRUCT(a, b)} orders by a, then b
   * @param deleteWhen a condition on a source row that makes it a delete
   * @param truncateWhen a condition on a source row that makes it empty the table (SCD type 1)
   * @param columns the source columns the target keeps
   * @param scdType whether the target keeps the current row or every version
   * @param trackHistory the columns whose change opens a new version (SCD type 2)
   * @param ignoreNullUpdates the columns whose NULL in an upsert keeps the stored value
   * @param once whether the flow reads its source as a batch, once, instead of as a stream
   */
  record AutoCdc(
      List<String> keys,
      Column sequence,
      Optional<String> deleteWhen,
      Optional<String> truncateWhen,
      ColumnSelection columns,
      ScdType scdType,
      ColumnSelection trackHistory,
      ColumnSelection ignoreNullUpdates,
      boolean once) implements AutoCdcFamily {
    public AutoCdc {
      keys = List.copyOf(keys);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.autoCdc(this);
    }

    @Override
    public boolean streaming() {
      return !once;
    }
  }

  /**
   * Brings a keyed table to each new snapshot of a source, as SCD type 1 or 2 (SEMANTICS §5).
   * Build one with {@link AutoCdcBuilder#buildFromSnapshot}.
   *
   * @param keys the key columns of the snapshots
   * @param scdType whether the target keeps the current row or every version
   * @param trackHistory the columns whose change opens a new version (SCD type 2)
   * @param once whether the flow processes a single snapshot, then nothing until a full refresh
   * @param versions where versioned snapshots come from (§5.2); empty for a periodic flow (§5.1),
   *     whose query is read whole on each update and versioned by the update's start time
   */
  record AutoCdcFromSnapshot(
      List<String> keys, ScdType scdType, ColumnSelection trackHistory, boolean once, Optional<SnapshotSource> versions)
      implements AutoCdcFamily {
    public AutoCdcFromSnapshot {
      keys = List.copyOf(keys);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.autoCdcFromSnapshot(this);
    }

    @Override
    public boolean comparesSnapshots() {
      return true;
    }

    @Override
    public boolean streaming() {
      return false;
    }
  }

  FlowMode APPEND = new Append();
}
