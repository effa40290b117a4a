package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.catalog.SessionCatalogAlias;
import io.sluice.samples.BookingSamples;
import io.sluice.testsupport.TestPipeline;
import io.sluice.update.UpdateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of examples/replace-using, run verbatim on generated sample data. */
class ReplaceUsingExamplesTest {
  @TempDir Path dir;

  @Test
  void documentExamplesGiveTheLatestValidRowPerKey() throws IOException {
    Path example = Path.of("examples/replace-using");
    TestPipeline p = new TestPipeline(dir)
        .write("transformations/bookings.sql", Files.readString(example.resolve("transformations/bookings.sql")))
        .write("transformations/events.sql", Files.readString(example.resolve("transformations/events.sql")))
        .write("data/events/01-first.json", Files.readString(example.resolve("data/events/01-first.json")))
        .write("data/events/02-update.json", Files.readString(example.resolve("data/events/02-update.json")));
    p.spark().conf().set("spark.sql.catalog.samples", SessionCatalogAlias.class.getName());
    BookingSamples.create(p.spark(), 300, 3);

    UpdateResult result = p.run();
    assertTrue(result.succeeded(), () -> result.flows().toString());

    assertEquals(List.of(
            "[1,Android,conversion,2]", "[1,desktop,click,2]", "[1,iOS,click,2]",
            "[2,desktop,click,1]", "[2,iOS,click,1]", "[3,desktop,click,2]"),
        p.rows("SELECT * FROM region_events"));
    String latest = """
        SELECT booking_id, status, total_amount, booking_update_id FROM (
          SELECT *, max(booking_update_id) OVER (PARTITION BY booking_id) AS top
          FROM samples.wanderbricks.booking_updates %s) WHERE booking_update_id = top
        """;
    assertEquals(p.rows(latest.formatted("")), p.rows("SELECT * FROM bookings_current"));
    assertEquals(p.rows(latest.formatted("WHERE total_amount > 0")),
        p.rows("SELECT booking_id, status, total_amount, booking_update_id FROM bookings_validated"));
    assertEquals(p.rows("SELECT count(DISTINCT property_id, booking_id) FROM samples.wanderbricks.booking_updates"),
        p.rows("SELECT count(*) FROM bookings_by_property"));
    assertEquals(p.rows("SELECT payment_id, booking_id, status, payment_date FROM samples.wanderbricks.payments"),
        p.rows("SELECT * FROM payments_current"));
  }
}
