package io.sluice.testing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Expected rows against the rows a table holds, on the columns the expected rows name: what is
 * missing and what is unexpected, as a person reads it. Values are compared as a user writes
 * them: numbers by value ({@code 120.5} is {@code 120.50}), a timestamp's {@code T} as a space,
 * null as null.
 */
public final class RowComparison {
  private static final Pattern ISO_TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:.*");
  private static final String NULL = "NULL";

  private final List<String> columns;
  private final List<List<String>> missing;
  private final List<List<String>> unexpected;

  private RowComparison(List<String> columns, List<List<String>> missing, List<List<String>> unexpected) {
    this.columns = columns;
    this.missing = missing;
    this.unexpected = unexpected;
  }

  /**
   * Compares {@code expected} rows with {@code actual} ones (the same columns, each value as the
   * table's text of it, null for NULL); {@code ordered} compares position by position.
   */
  public static RowComparison of(List<String> columns, List<Map<String, Object>> expected, List<List<String>> actual, boolean ordered) {
    List<List<String>> want = expected.stream().map(row -> columns.stream().map(c -> canonical(row.get(c))).toList()).toList();
    List<List<String>> have = actual.stream().map(row -> row.stream().map(v -> canonical((Object) v)).toList()).toList();
    if (ordered) {
      if (want.equals(have)) {
        return new RowComparison(columns, List.of(), List.of());
      }
      return new RowComparison(columns, want, have);
    }
    Map<List<String>, Integer> left = new HashMap<>();
    have.forEach(row -> left.merge(row, 1, Integer::sum));
    List<List<String>> missing = new ArrayList<>();
    for (List<String> row : want) {
      Integer n = left.get(row);
      if (n == null) {
        missing.add(row);
      } else if (n == 1) {
        left.remove(row);
      } else {
        left.put(row, n - 1);
      }
    }
    List<List<String>> unexpected = new ArrayList<>();
    for (List<String> row : have) {
      Integer n = left.get(row);
      if (n != null) {
        unexpected.add(row);
        if (n == 1) {
          left.remove(row);
        } else {
          left.put(row, n - 1);
        }
      }
    }
    return new RowComparison(columns, missing, unexpected);
  }

  public boolean matches() {
    return missing.isEmpty() && unexpected.isEmpty();
  }

  /** The difference as text: the columns compared, then the missing and the unexpected rows as tables. */
  public String describe(boolean ordered) {
    StringBuilder text = new StringBuilder("compared on ").append(String.join(", ", columns));
    if (ordered) {
      text.append(", in order\n").append("expected:\n").append(table(missing)).append("found:\n").append(table(unexpected));
      return text.toString();
    }
    text.append('\n');
    if (!missing.isEmpty()) {
      text.append("missing (expected, not found):\n").append(table(missing));
    }
    if (!unexpected.isEmpty()) {
      text.append("unexpected (found, not expected):\n").append(table(unexpected));
    }
    return text.toString();
  }

  private String table(List<List<String>> rows) {
    List<Integer> widths = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      int width = columns.get(c).length();
      for (List<String> row : rows) {
        width = Math.max(width, row.get(c).length());
      }
      widths.add(width);
    }
    StringBuilder text = new StringBuilder();
    line(text, columns, widths);
    line(text, widths.stream().map(w -> String.join("", Collections.nCopies(w, "-"))).toList(), widths);
    rows.forEach(row -> line(text, row, widths));
    if (rows.isEmpty()) {
      text.append("  (no rows)\n");
    }
    return text.toString();
  }

  private static void line(StringBuilder text, List<String> cells, List<Integer> widths) {
    text.append(' ');
    for (int c = 0; c < cells.size(); c++) {
      text.append(' ').append(cells.get(c)).append(" ".repeat(widths.get(c) - cells.get(c).length()));
      if (c < cells.size() - 1) {
        text.append(" |");
      }
    }
    text.setLength(text.toString().stripTrailing().length());
    text.append('\n');
  }

  /** A value as it is compared: NULL, a number's plain digits, a timestamp with a space, or the text. */
  static String canonical(Object value) {
    if (value == null) {
      return NULL;
    }
    String text = value.toString();
    try {
      return new BigDecimal(text).stripTrailingZeros().toPlainString();
    } catch (NumberFormatException notANumber) {
      return ISO_TIMESTAMP.matcher(text).matches() ? text.replaceFirst("T", " ") : text;
    }
  }
}
