package io.sluice.expectations;

import java.util.function.Function;
import org.apache.spark.sql.Column;

/**
 * A condition that a flow kind requires of every row of a batch that its DROP expectations
 * keep (an AUTO CDC key that is not NULL, say), checked in the same aggregation as the
 * dataset's expectations, so it costs no Spark job of its own. A row that does not meet it
 * fails the flow with the error that {@code failure} makes of the row (as JSON), before
 * anything is written.
 */
public record BatchRequirement(Column holds, Function<String, RuntimeException> failure) {}
