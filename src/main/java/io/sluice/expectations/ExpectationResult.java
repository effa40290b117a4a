package io.sluice.expectations;

/** How the rows of one batch fared against one expectation. */
public record ExpectationResult(String name, String dataset, ViolationAction action, long passedRecords, long failedRecords) {}
