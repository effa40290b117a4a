package io.sluice.testing;

import io.sluice.Origin;
import java.util.List;
import java.util.Map;

/**
 * Rows that arrive at one source of the pipeline, named as {@code sluice graph} names it: for
 * files read by {@code read_files}, {@code <format> files <folder>} with the folder as the
 * pipeline's SQL gives it (e.g. {@code json files data/users}).
 *
 * @param rows each row's fields by name; a value is null, a boolean, a number or text
 */
public record GivenRows(String source, Origin origin, List<Map<String, Object>> rows) {
  public GivenRows {
    rows = List.copyOf(rows);
  }
}
