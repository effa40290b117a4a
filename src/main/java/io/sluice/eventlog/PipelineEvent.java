package io.sluice.eventlog;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One row of the event log.
 *
 * @param flowName the flow the event is about, if any
 * @param datasetName the dataset the event is about, if any
 * @param batchId the micro-batch, for per-batch metrics
 * @param details structured payload, stored as JSON
 */
public record PipelineEvent(
    String id,
    long sequence,
    String updateId,
    Optional<String> flowName,
    Optional<String> datasetName,
    Optional<Long> batchId,
    Instant timestamp,
    EventLevel level,
    EventType type,
    String message,
    Map<String, Object> details,
    Optional<String> error) {}
