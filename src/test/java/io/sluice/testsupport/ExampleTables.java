package io.sluice.testsupport;

import static io.sluice.testsupport.JsonRows.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The tables a complete run of a shipped example leaves, as a user checks them: per table, a
 * query and its rows (columns joined by '|', sorted, as {@link JsonRows#rows}). Wherever an
 * example runs (embedded, on a cluster, after a crash), its tables must hold these rows.
 * The quickstart's rows are derived from its data files by its rules, the others are the
 * tables its README documents.
 */
public final class ExampleTables {
  /**
   * A query of one table and the rows it must return, sorted. The query names the table as
   * {@code {table}}, so that it can be read in a database given by the caller.
   */
  public record Expected(String table, String sql, List<String> columns, List<String> rows) {
    static Expected all(String table, List<String> columns, List<String> rows) {
      return new Expected(table, "SELECT * FROM {table}", columns, rows);
    }

    /** The query over {@code database.table}, or the unqualified table when {@code database} is null. */
    public String query(String database) {
      return sql.replace("{table}", (database == null ? "" : database + ".") + table);
    }
  }

  private static final List<String> SCD1_USERS = sorted("124|Raul|Oaxaca", "125|Mercedes|Guadalajara", "126|Lily|Cancun");

  private ExampleTables() {}

  /** The expected tables of {@code examples/<example>} in the repository at {@code repo}. */
  public static List<Expected> of(Path repo, String example) {
    return switch (example) {
      case "quickstart" -> quickstart(repo.resolve("examples/quickstart/data/orders"));
      case "auto-cdc" -> List.of(
          new Expected("users_cdc", "SELECT userId, operation, sequenceNum FROM {table}",
              List.of("userId", "operation", "sequenceNum"),
              sorted("123|INSERT|1", "123|DELETE|6", "123|UPDATE|5", "124|INSERT|1", "125|INSERT|2",
                  "125|UPDATE|6", "125|UPDATE|5", "126|INSERT|2")),
          Expected.all("users_scd1", List.of("userId", "name", "city"), SCD1_USERS),
          // The change feed replayed in commit order (the latest change of each user, deletes
          // removing) is users_scd1 again.
          new Expected("users_changes", "SELECT userId, name, city FROM (SELECT *, row_number() OVER"
              + " (PARTITION BY userId ORDER BY _commit_version DESC) AS latest FROM {table})"
              + " WHERE latest = 1 AND _change_type != 'delete'", List.of("userId", "name", "city"), SCD1_USERS),
          Expected.all("users_scd2", List.of("userId", "name", "city", "__START_AT", "__END_AT"),
              sorted("123|Isabel|Monterrey|1|5", "123|Isabel|Chihuahua|5|6",
                  "124|Raul|Oaxaca|1|null",
                  "125|Mercedes|Tijuana|2|5", "125|Mercedes|Mexicali|5|6", "125|Mercedes|Guadalajara|6|null",
                  "126|Lily|Cancun|2|null")));
      case "snapshot-cdc" -> List.of(
          Expected.all("customers", List.of("id", "name", "city"),
              sorted("2|Bo|Tromso", "3|Cy|Milan", "4|Di|Kyiv", "5|Ed|Quito")),
          new Expected("customers_history",
              "SELECT id, name, city, string(__START_AT) AS __START_AT, string(__END_AT) AS __END_AT FROM {table}",
              List.of("id", "name", "city", "__START_AT", "__END_AT"),
              sorted("1|Ana|Lima|2026-01-01|2026-01-05", "1|Ana Maria|Lima|2026-01-05|2026-01-06",
                  "2|Bo|Oslo|2026-01-01|2026-01-02", "2|Bo|Bergen|2026-01-02|2026-01-06", "2|Bo|Tromso|2026-01-06|null",
                  "3|Cy|Rome|2026-01-01|2026-01-02", "3|Cy|Rome|2026-01-03|2026-01-05", "3|Cy|Milan|2026-01-05|null",
                  "4|Di|Kyiv|2026-01-02|2026-01-05", "4|Di|Kyiv|2026-01-06|null",
                  "5|Ed|Quito|2026-01-06|null")));
      default -> throw new IllegalArgumentException("no expected tables for example " + example);
    };
  }

  /** Asserts that the {@code queried} tables (by {@link #queries}) hold the expected rows; {@code where} names the run. */
  public static void assertHolds(List<Expected> tables, Map<String, List<JsonNode>> queried, String where) {
    for (Expected table : tables) {
      assertEquals(table.rows(), JsonRows.rows(queried.get(table.table()), table.columns().toArray(String[]::new)),
          where + ": " + table.table());
    }
  }

  /** Every expected table's query, by table name, for {@link SluiceCommands#queryAll}. */
  public static Map<String, String> queries(List<Expected> tables, String database) {
    Map<String, String> queries = new LinkedHashMap<>();
    tables.forEach(t -> queries.put(t.table(), t.query(database)));
    return queries;
  }

  /**
   * The quickstart's rules applied to its order files: every order lands in orders_raw once;
   * orders_clean drops orders without an id or with an amount that is not positive, and trims
   * and lower-cases customers; customer_revenue counts and sums the orders not cancelled.
   */
  public static List<Expected> quickstart(Path orders) {
    List<String> raw = new ArrayList<>();
    List<String> clean = new ArrayList<>();
    Map<String, BigDecimal[]> revenue = new TreeMap<>();
    try (Stream<Path> files = Files.list(orders)) {
      for (Path file : files.sorted().toList()) {
        for (JsonNode order : JsonRows.parseLines(Files.readString(file))) {
          raw.add(JsonRows.text(order.get("order_id")) + "|" + file.getFileName());
          JsonNode amount = order.get("amount");
          if (order.path("order_id").isNull() || amount == null || amount.decimalValue().signum() <= 0) {
            continue;
          }
          String customer = order.get("customer").asText().trim().toLowerCase(Locale.ROOT);
          String status = order.get("status").asText();
          clean.add(JsonRows.text(order.get("order_id")) + "|" + customer + "|" + JsonRows.text(amount) + "|" + status);
          if (!status.equals("cancelled")) {
            BigDecimal[] sums = revenue.computeIfAbsent(customer, c -> new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
            sums[0] = sums[0].add(BigDecimal.ONE);
            sums[1] = sums[1].add(amount.decimalValue());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> perCustomer = revenue.entrySet().stream()
        .map(e -> e.getKey() + "|" + e.getValue()[0] + "|" + e.getValue()[1].stripTrailingZeros().toPlainString())
        .toList();
    return List.of(
        new Expected("orders_raw", "SELECT order_id, source_file FROM {table}", List.of("order_id", "source_file"), raw.stream().sorted().toList()),
        Expected.all("orders_clean", List.of("order_id", "customer", "amount", "status"), clean.stream().sorted().toList()),
        Expected.all("customer_revenue", List.of("customer", "orders", "revenue"), perCustomer.stream().sorted().toList()));
  }
}
