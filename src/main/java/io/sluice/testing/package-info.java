/**
 * Pipeline tests that users write: rows given to a pipeline's sources, update after update, and
 * what its tables must then hold ({@code tests/*.yml}, run by {@code sluice test}). Each test runs
 * the real pipeline on the real engine, in storage, checkpoints and a database of its own.
 */
package io.sluice.testing;
