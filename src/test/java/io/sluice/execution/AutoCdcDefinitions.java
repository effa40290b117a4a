package io.sluice.execution;

import io.sluice.api.Pipeline;
import io.sluice.api.PipelineDefinition;

/** The users example of AutoCdcTest through the Java API, plus a variant with the optional clauses. */
public class AutoCdcDefinitions implements PipelineDefinition {
  @Override
  public void define(Pipeline pipeline) {
    pipeline.streamingTable("users_scd1").create();
    pipeline.autoCdcFlow("users_scd1_flow").into("users_scd1").source("users_cdc")
        .keys("userId")
        .applyAsDeleteWhen("operation = 'DELETE'")
        .sequenceBy("sequenceNum")
        .columnsExcept("operation", "sequenceNum")
        .storedAsScdType(1)
        .create();

    pipeline.streamingTable("users_scd2").create();
    pipeline.autoCdcFlow("users_scd2_flow").into("users_scd2").source("users_cdc")
        .keys("userId")
        .applyAsDeleteWhen("operation = 'DELETE'")
        .sequenceBy("sequenceNum")
        .columnsExcept("operation", "sequenceNum")
        .storedAsScdType(2)
        .create();

    // Clauses in another order; only a new name opens a version, and NULLs keep what is stored.
    pipeline.streamingTable("users_names").create();
    pipeline.autoCdcFlow("users_names_flow")
        .storedAsScdType(2)
        .trackHistoryExcept("city")
        .ignoreNullUpdates()
        .columns("userId", "name", "city")
        .sequenceBy("sequenceNum")
        .applyAsDeleteWhen("operation = 'DELETE'")
        .keys("userId")
        .source("users_cdc")
        .into("users_names")
        .create();

    pipeline.streamingTable("users_once").create();
    pipeline.autoCdcFlow("users_once_flow").into("users_once").source("users_cdc").once()
        .keys("userId")
        .applyAsDeleteWhen("operation = 'DELETE'")
        .sequenceBy("sequenceNum")
        .columnsExcept("operation", "sequenceNum")
        .create();
  }
}
