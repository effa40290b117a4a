package io.sluice.bench;

import io.sluice.spec.PipelineSpec;
import io.sluice.update.UpdateResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;

/**
 * Materialized views over a table of {@code rows} orders (with a change data feed, partitioned by
 * day, a hundredth of the first rows a day) and one of 1,000 cities (a join; a window by customer,
 * whose orders are appended together; a view partitioned by day), refreshed after appends of a
 * share of it, then after a delete of 0.1% of its rows, then of 0.1% in one day: each view with the
 * default policy against the same view with {@code REFRESH POLICY FULL}, in the same updates, one
 * flow at a time. Prints each refresh's seconds, their ratio, the technique taken and the Spark
 * jobs of the default policy's refresh, each of those jobs with its time after the smallest
 * append, and the Spark jobs of an update with nothing new.
 */
public final class MaterializedViewBenchmark {
  private static final String DATABASE = "bench_mv";
  private static final String[][] VIEWS = {
      {"group aggregate", "SELECT city, count(*) AS orders, sum(quantity) AS quantity, min(amount) AS cheapest,"
          + " max(amount) AS dearest FROM orders GROUP BY city"},
      {"average", "SELECT city, avg(amount) AS amount, count(DISTINCT quantity) AS quantities FROM orders GROUP BY city"},
      {"filter", "SELECT id, city, amount FROM orders WHERE quantity = 7"},
      {"join", "SELECT o.id, o.amount, c.region FROM orders o JOIN cities c ON o.city = c.city WHERE o.quantity < 3"},
      {"window", "SELECT id, customer, amount, row_number() OVER (PARTITION BY customer ORDER BY amount DESC, id) AS n"
          + " FROM orders WHERE quantity < 3"},
      {"partitioned", "SELECT day, count(DISTINCT customer) AS customers, avg(amount) AS amount FROM orders GROUP BY day",
          "PARTITIONED BY (day) "},
  };
  private final SparkSession spark;
  private final Path root;
  private final PrintStream out;
  private JobCounter jobs;

  public MaterializedViewBenchmark(SparkSession spark, Path root, PrintStream out) {
    this.spark = spark;
    this.root = root;
    this.out = out;
  }

  public void run(long rows, double[] shares) {
    BenchSupport.oneFlowAtATime(spark);
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < VIEWS.length; i++) {
      String clauses = VIEWS[i].length > 2 ? VIEWS[i][2] : "";
      sql.append("CREATE MATERIALIZED VIEW v").append(i).append(' ').append(clauses).append("AS ").append(VIEWS[i][1]).append(";\n");
      sql.append("CREATE MATERIALIZED VIEW v").append(i).append("_full ").append(clauses).append("REFRESH POLICY FULL AS ")
          .append(VIEWS[i][1]).append(";\n");
    }
    PipelineSpec spec = BenchSupport.pipeline(spark, root, "mv", DATABASE, sql.toString());
    long dayRows = Math.max(1, rows / 100);
    double written = BenchSupport.time(() -> append(0, rows, dayRows, true));
    spark.sql("CREATE OR REPLACE TABLE " + DATABASE + ".cities USING delta AS SELECT concat('city-', id) AS city,"
        + " concat('region-', id % 20) AS region FROM range(1000)");
    double first = BenchSupport.time(() -> BenchSupport.update(spark, spec));
    out.printf(Locale.ROOT, "%,d orders written in %.1f s; first refresh of the %d views %.1f s%n", rows, written,
        VIEWS.length * 2, first);
    jobs = JobCounter.on(spark);
    long idleJobs = jobs.count(() -> BenchSupport.update(spark, spec));
    out.printf(Locale.ROOT, "an update with nothing new: %d Spark jobs for the %d views%n", idleJobs, VIEWS.length * 2);
    long next = rows;
    for (double share : shares) {
      long added = Math.max(1, Math.round(rows * share));
      append(next, added, dayRows, false);
      next += added;
      // The jobs of each refresh after the smallest append (the fixed cost), and of the group aggregates' after the largest.
      report(spec, String.format(Locale.ROOT, "%6.2f%% appended (%,d rows)", share * 100, added),
          share == shares[0] ? VIEWS.length : share == shares[shares.length - 1] ? 2 : 0);
    }
    spark.sql("DELETE FROM " + DATABASE + ".orders WHERE id % 1000 = 1");
    report(spec, "  0.10% deleted", 0);
    spark.sql("DELETE FROM " + DATABASE + ".orders WHERE day = 3 AND id % 10 = 1");
    report(spec, "  0.10% deleted in one day", 0);
  }

  /** Runs an update after {@code change} and prints each view's refresh, with the jobs of the first {@code listed}. */
  private void report(PipelineSpec spec, String change, int listed) {
    // The orders' new version listed before the update: the first view to scan it would pay for
    // it (Delta's "Compute snapshot" jobs, cached for the others), whichever policy it has.
    spark.table(DATABASE + ".orders").inputFiles();
    UpdateResult[] result = new UpdateResult[1];
    List<String> ran = jobs.describe(() -> result[0] = BenchSupport.update(spark, spec));
    for (int i = 0; i < VIEWS.length; i++) {
      double incremental = BenchSupport.seconds(BenchSupport.flow(result[0], "v" + i));
      double full = BenchSupport.seconds(BenchSupport.flow(result[0], "v" + i + "_full"));
      // Each refresh's jobs are labelled "sluice: refresh <view>", then the part of it they do.
      Pattern own = Pattern.compile("sluice: refresh v" + i + "\\b");
      List<String> viewJobs = ran.stream().filter(job -> own.matcher(job).find()).toList();
      out.printf(Locale.ROOT, "%-16s %s: default policy %.2f s (%d Spark jobs), FULL %.2f s, %.2fx, by %s%n",
          VIEWS[i][0], change, incremental, viewJobs.size(), full, incremental / full, technique("v" + i));
      if (i < listed) {
        viewJobs.forEach(job -> out.println("    " + job));
      }
    }
    for (int i = 0; i < VIEWS.length; i++) {
      BenchSupport.expect(out, "v" + i + " rows equal v" + i + "_full's", BenchSupport.count(spark,
          "(SELECT * FROM " + DATABASE + ".v" + i + " EXCEPT ALL SELECT * FROM " + DATABASE + ".v" + i + "_full)"), 0);
    }
  }

  private void append(long from, long count, long dayRows, boolean create) {
    // 50 orders a customer, in order: a customer's orders lie in one or two files.
    String rows = "SELECT id, concat('city-', id % 1000) AS city, CAST(id % 13 AS INT) AS quantity,"
        + " CAST(id % 997 AS DECIMAL(10,2)) AS amount, id DIV 50 AS customer, id DIV " + dayRows + " AS day"
        + " FROM range(" + from + ", " + (from + count) + ")";
    spark.sql(create ? "CREATE OR REPLACE TABLE " + DATABASE + ".orders USING delta PARTITIONED BY (day)"
        + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true', 'delta.enableDeletionVectors' = 'true') AS " + rows
        : "INSERT INTO " + DATABASE + ".orders " + rows);
  }

  /** The technique of the view's last refresh, from the message of its last planning event. */
  private String technique(String view) {
    return spark.sql("SELECT message FROM delta.`" + root.resolve("storage-mv").resolve("system/event_log")
            + "` WHERE event_type = 'planning_information' AND origin.dataset_name = '" + view
            + "' ORDER BY timestamp DESC, sequence DESC LIMIT 1").first().getString(0).replaceAll(".*refresh: ", "");
  }
}
