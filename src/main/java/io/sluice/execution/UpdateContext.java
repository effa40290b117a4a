package io.sluice.execution;

import io.sluice.eventlog.EventLog;
import io.sluice.graph.DatasetReader;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.apache.spark.sql.SparkSession;

/**
 * What the flows of one round of an update share. A triggered update is one round; a
 * continuous one runs round after round (SEMANTICS §10.1).
 *
 * @param roundStart when the round started: the version of a periodic snapshot taken in it
 * @param firstRound whether this is the update's first round: later rounds do not say again
 *     that a flow found nothing new
 * @param stopping whether the update was asked to stop: no batch starts once it is
 */
public record UpdateContext(
    SparkSession spark, EventLog events, DatasetReader reader, Instant roundStart, boolean firstRound,
    BooleanSupplier stopping) {}
