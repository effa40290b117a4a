package io.sluice.expectations;

import io.sluice.Origin;


/**
 * A named data-quality rule on a dataset. A row violates it when {@code condition} is not
 * true: false or NULL (SEMANTICS §6.1).
 */
public record Expectation(String name, String condition, ViolationAction action, Origin origin) {}
