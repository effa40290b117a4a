package io.sluice.graph;

/** How an AUTO CDC target keeps its keys' changes: the current row only, or every version. */
public enum ScdType {
  /** The current row of each key; a delete removes it. */
  TYPE_1,
  /** Every version of each key, valid from {@code __START_AT} until {@code __END_AT}. */
  TYPE_2;

  /** The type numbered {@code number} in {@code STORED AS SCD TYPE number}: 1 or 2. */
  static ScdType of(int number) {
    return switch (number) {
      case 1 -> TYPE_1;
      case 2 -> TYPE_2;
      default -> throw new IllegalArgumentException("SCD type " + number);
    };
  }

  public boolean keepsHistory() {
    return this == TYPE_2;
  }

  @Override
  public String toString() {
    return this == TYPE_1 ? "1" : "2";
  }
}
