/**
 * Pipeline tests that users write: rows given to a pipeline's sources, update after update, and
 * what its tables must then hold. {@link io.sluice.testing.PipelineTest} is the Java kit (with a
 * JUnit 5 extension); the test files ({@code tests/*.yml}, run by {@code sluice test}) are run on
 * it. Each test runs the real pipeline on the real engine, in a copy of its folder with storage,
 * checkpoints and a database of its own.
 */
package io.sluice.testing;
