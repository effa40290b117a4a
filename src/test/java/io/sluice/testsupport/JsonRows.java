package io.sluice.testsupport;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Rows printed by {@code sluice query --format json}, turned into what tests compare. */
public final class JsonRows {
  public static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private JsonRows() {}

  public static List<JsonNode> parseLines(String jsonLines) {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : jsonLines.lines().filter(l -> !l.isBlank()).toList()) {
      try {
        rows.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new AssertionError("not a JSON line: " + line, e);
      }
    }
    return rows;
  }

  /**
   * Rows as sorted strings of the given columns joined by '|', for exact multiset
   * comparisons (duplicates stay visible). Numbers are normalised (120.50 -> 120.5), NULL
   * is "null".
   */
  public static List<String> rows(List<JsonNode> rows, String... columns) {
    return rows.stream().map(row -> Stream.of(columns).map(c -> text(row.get(c))).collect(Collectors.joining("|")))
        .sorted().toList();
  }

  /** The column names of a row, in order. */
  public static List<String> fieldNames(JsonNode row) {
    List<String> names = new ArrayList<>();
    row.fieldNames().forEachRemaining(names::add);
    return names;
  }

  public static List<String> sorted(String... rows) {
    return Stream.of(rows).sorted().toList();
  }

  public static String text(JsonNode node) {
    if (node == null || node.isNull()) {
      return "null";
    }
    if (node.isNumber()) {
      return node.decimalValue().stripTrailingZeros().toPlainString();
    }
    return node.asText();
  }
}
