package io.sluice.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected rows against a table's, no Spark: values as a user writes them, multisets, and the diff a person reads. */
class RowComparisonTest {
  private static final List<String> COLUMNS = List.of("id", "amount", "at");

  @Test
  void valuesCompareAsTheyAreWritten() {
    RowComparison same = RowComparison.of(COLUMNS,
        List.of(row(new BigDecimal("1"), new BigDecimal("120.5"), "2026-12-01T12:00:00"), row(new BigDecimal("2"), null, null)),
        List.of(Arrays.asList("2", null, null), List.of("1", "120.50", "2026-12-01 12:00:00")), false);
    assertTrue(same.matches(), same.describe(false));
  }

  @Test
  void aMultisetCountsDuplicatesAndTheDiffShowsBothSides() {
    RowComparison diff = RowComparison.of(COLUMNS,
        List.of(row(new BigDecimal("1"), new BigDecimal("5"), "x"), row(new BigDecimal("1"), new BigDecimal("5"), "x")),
        List.of(List.of("1", "5", "x"), List.of("3", "7", "y")), false);
    assertFalse(diff.matches());
    assertEquals("""
        compared on id, amount, at
        missing (expected, not found):
          id | amount | at
          -- | ------ | --
          1  | 5      | x
        unexpected (found, not expected):
          id | amount | at
          -- | ------ | --
          3  | 7      | y
        """, diff.describe(false));
  }

  @Test
  void orderedRowsCompareByPosition() {
    List<Map<String, Object>> expected = List.of(row(new BigDecimal("1"), null, "a"), row(new BigDecimal("2"), null, "b"));
    assertTrue(RowComparison.of(COLUMNS, expected, List.of(Arrays.asList("1", null, "a"), Arrays.asList("2", null, "b")), true).matches());
    RowComparison swapped = RowComparison.of(COLUMNS, expected, List.of(Arrays.asList("2", null, "b"), Arrays.asList("1", null, "a")), true);
    assertFalse(swapped.matches());
    assertTrue(swapped.describe(true).startsWith("compared on id, amount, at, in order\nexpected:\n"), swapped.describe(true));
    assertTrue(RowComparison.of(COLUMNS, expected, List.of(Arrays.asList("1", null, "a"), Arrays.asList("2", null, "b")), false).matches());
  }

  private static Map<String, Object> row(Object id, Object amount, Object at) {
    Map<String, Object> row = new HashMap<>();
    row.put("id", id);
    row.put("amount", amount);
    row.put("at", at);
    return row;
  }
}
