package io.sluice.cli;

import io.sluice.samples.BookingSamples;
import io.sluice.spec.PipelineSpec;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice samples}: the bookings sample tables, in the pipeline's catalog. */
@Command(name = "samples", description = "Create the bookings sample tables (wanderbricks.booking_updates, wanderbricks.payments).")
public final class SamplesCommand extends FolderCommand implements ToolCommand {
  @Option(names = "--scale", defaultValue = "10000", description = "Number of bookings (default ${DEFAULT-VALUE}); about 3 updates each.")
  long scale;

  @Option(names = "--commits", defaultValue = "4", description = "Appends per table, so streams see several batches (default ${DEFAULT-VALUE}).")
  int commits;

  @Override
  int run(PipelineSpec spec, SparkSession spark) {
    BookingSamples.create(spark, scale, commits);
    long updates = spark.table(BookingSamples.DATABASE + ".booking_updates").count();
    long payments = spark.table(BookingSamples.DATABASE + ".payments").count();
    System.out.println("created " + BookingSamples.DATABASE + ".booking_updates (" + updates + " rows) and "
        + BookingSamples.DATABASE + ".payments (" + payments + " rows) for " + scale + " bookings");
    return 0;
  }
}
