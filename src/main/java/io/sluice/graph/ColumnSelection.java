package io.sluice.graph;

import io.sluice.common.Identifiers;
import java.util.List;

/**
 * The columns an AUTO CDC clause names: {@code cols}, {@code * EXCEPT (cols)}, all of them,
 * or none (the clause is absent and off by default, as IGNORE NULL UPDATES is).
 */
public record ColumnSelection(Kind kind, List<String> names) {
  /** How {@link #names} are read. */
  public enum Kind { ALL, NONE, ONLY, EXCEPT }

  public static final ColumnSelection ALL = new ColumnSelection(Kind.ALL, List.of());
  public static final ColumnSelection NONE = new ColumnSelection(Kind.NONE, List.of());

  public ColumnSelection {
    names = List.copyOf(names);
  }

  public static ColumnSelection only(List<String> names) {
    return new ColumnSelection(Kind.ONLY, names);
  }

  public static ColumnSelection except(List<String> names) {
    return new ColumnSelection(Kind.EXCEPT, names);
  }

  /** Whether {@code column} is selected; names compare as Spark's analyser compares them. */
  public boolean includes(String column) {
    boolean named = names.stream().anyMatch(n -> Identifiers.sameColumn(n, column));
    return switch (kind) {
      case ALL -> true;
      case NONE -> false;
      case ONLY -> named;
      case EXCEPT -> !named;
    };
  }

  @Override
  public String toString() {
    return switch (kind) {
      case ALL -> "*";
      case NONE -> "none";
      case ONLY -> String.join(", ", names);
      case EXCEPT -> "* EXCEPT (" + String.join(", ", names) + ")";
    };
  }
}
