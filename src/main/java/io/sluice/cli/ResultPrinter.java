package io.sluice.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Prints a query result as an aligned table, CSV, or JSON Lines. */
final class ResultPrinter {
  enum Format { table, csv, json }

  private ResultPrinter() {}

  static void print(Dataset<Row> result, Format format, PrintWriter out) {
    switch (format) {
      case json -> result.toJSON().collectAsList().forEach(out::println);
      case csv -> printCsv(result, out);
      case table -> printTable(result, out);
    }
    out.flush();
  }

  private static void printCsv(Dataset<Row> result, PrintWriter out) {
    out.println(String.join(",", List.of(result.columns()).stream().map(ResultPrinter::csvField).toList()));
    for (Row row : result.collectAsList()) {
      List<String> fields = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        fields.add(row.isNullAt(i) ? "" : csvField(String.valueOf(row.get(i))));
      }
      out.println(String.join(",", fields));
    }
  }

  private static String csvField(String value) {
    boolean quote = value.contains(",") || value.contains("\"") || value.contains("\n");
    return quote ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
  }

  private static void printTable(Dataset<Row> result, PrintWriter out) {
    String[] header = result.columns();
    if (header.length == 0) {
      return;
    }
    List<String[]> rows = new ArrayList<>();
    for (Row row : result.collectAsList()) {
      String[] cells = new String[row.size()];
      for (int i = 0; i < row.size(); i++) {
        cells[i] = row.isNullAt(i) ? "NULL" : String.valueOf(row.get(i));
      }
      rows.add(cells);
    }
    int[] widths = new int[header.length];
    for (int i = 0; i < header.length; i++) {
      widths[i] = header[i].length();
      for (String[] cells : rows) {
        widths[i] = Math.max(widths[i], cells[i].length());
      }
    }
    out.println(line(header, widths));
    out.println(line(dashes(widths), widths));
    rows.forEach(cells -> out.println(line(cells, widths)));
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
  }

  private static String[] dashes(int[] widths) {
    String[] cells = new String[widths.length];
    for (int i = 0; i < widths.length; i++) {
      cells[i] = "-".repeat(widths[i]);
    }
    return cells;
  }

  private static String line(String[] cells, int[] widths) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      text.append(i == 0 ? "" : "  ").append(String.format("%-" + widths[i] + "s", cells[i]));
    }
    return text.toString().stripTrailing();
  }
}
