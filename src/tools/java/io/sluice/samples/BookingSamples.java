package io.sluice.samples;

import io.sluice.common.SparkErrors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A deterministic, realistic version of the bookings sample data the product documents use
 * ({@code samples.wanderbricks.booking_updates} and {@code payments}). Every value derives
 * from hashes of the row's ids, so a scale always gives the same tables.
 *
 * <p>Each booking appears once per change, with a new, increasing {@code booking_update_id}
 * (1 to 5 changes: pending, confirmed, then possibly modified or cancelled). About 1% of the
 * updates carry a non-positive {@code total_amount}, for expectations to catch. Some updates of
 * one booking share an {@code updated_at}, which is why the documents sequence by the id.
 */
public final class BookingSamples {
  public static final String DATABASE = "wanderbricks";

  private BookingSamples() {}

  /** Creates or replaces the two tables with {@code bookings} bookings, in {@code commits} appends each. */
  public static void create(SparkSession spark, long bookings, int commits) {
    spark.sql("CREATE DATABASE IF NOT EXISTS " + DATABASE);
    replace(spark, "booking_updates", bookingUpdates(spark, bookings), commits, "booking_update_id");
    replace(spark, "payments", payments(spark, bookings), commits, "payment_id");
  }

  static Dataset<Row> bookingUpdates(SparkSession spark, long bookings) {
    return spark.range(1, bookings + 1).toDF("booking_id").selectExpr(
            "booking_id",
            "explode(sequence(1, 1 + pmod(hash(booking_id, 'changes'), 5))) AS change")
        .selectExpr(
            "booking_id * 8 + change AS booking_update_id",
            "booking_id",
            "1 + pmod(hash(booking_id, 'user'), greatest(" + bookings + " DIV 3, 1)) AS user_id",
            "1 + pmod(hash(booking_id, 'property'), greatest(" + bookings + " DIV 20, 1)) AS property_id",
            "date_add(DATE'2025-01-01', pmod(hash(booking_id, 'in'), 540)) AS check_in",
            "date_add(date_add(DATE'2025-01-01', pmod(hash(booking_id, 'in'), 540)), 1 + pmod(hash(booking_id, 'nights'), 14)) AS check_out",
            "1 + pmod(hash(booking_id, change, 'guests'), 6) AS guests_count",
            "CASE WHEN pmod(hash(booking_id, change, 'bad'), 100) = 0 THEN CAST(-pmod(hash(booking_id, 'neg'), 50) AS DECIMAL(10,2)) "
                + "ELSE CAST(40 + pmod(hash(booking_id, change, 'amount'), 300000) / 100.0 AS DECIMAL(10,2)) END AS total_amount",
            "CASE WHEN change = 1 THEN 'pending' WHEN change = 2 THEN 'confirmed' "
                + "WHEN pmod(hash(booking_id, change, 'status'), 4) = 0 THEN 'cancelled' ELSE 'modified' END AS status",
            "timestamp_seconds(1735689600 + booking_id * 60) AS created_at",
            // Changes 2 and 3 share a timestamp: updated_at cannot order them, booking_update_id can.
            "timestamp_seconds(1735689600 + booking_id * 60 + least(change, 2) * 3600 + greatest(change - 3, 0) * 86400) AS updated_at");
  }

  static Dataset<Row> payments(SparkSession spark, long bookings) {
    return spark.range(1, bookings + 1).toDF("booking_id").selectExpr(
            "booking_id",
            "explode(sequence(1, 1 + pmod(hash(booking_id, 'payments'), 3))) AS attempt")
        .selectExpr(
            "booking_id * 4 + attempt AS payment_id",
            "booking_id",
            "CAST(40 + pmod(hash(booking_id, 'paid'), 300000) / 100.0 AS DECIMAL(10,2)) AS amount",
            "element_at(array('card', 'transfer', 'wallet'), 1 + pmod(hash(booking_id, 'method'), 3)) AS payment_method",
            "CASE WHEN attempt = 1 AND pmod(hash(booking_id, 'failed'), 5) = 0 THEN 'failed' "
                + "WHEN attempt > 1 AND pmod(hash(booking_id, attempt, 'refund'), 7) = 0 THEN 'refunded' ELSE 'completed' END AS status",
            "timestamp_seconds(1735693200 + booking_id * 60 + attempt * 7200) AS payment_date");
  }

  /**
   * Writes the rows in {@code commits} appends, each a pseudo-random slice: a stream sees
   * several batches, and later batches carry older updates too, as real feeds do.
   */
  private static void replace(SparkSession spark, String table, Dataset<Row> rows, int commits, String orderColumn) {
    String name = DATABASE + "." + table;
    spark.sql("DROP TABLE IF EXISTS " + name);
    Dataset<Row> numbered = rows.withColumn("__part", org.apache.spark.sql.functions.expr(
        "pmod(hash(" + orderColumn + ", 'commit'), " + commits + ")"));
    for (int part = 0; part < commits; part++) {
      Dataset<Row> slice = numbered.where("__part = " + part).drop("__part");
      try {
        if (part == 0) {
          slice.writeTo(name).using("delta").create();
        } else {
          slice.writeTo(name).append();
        }
      } catch (Exception e) {
        throw SparkErrors.unchecked(e);
      }
    }
  }
}
