/**
 * The one package that touches Delta Lake's internals: keyed batches written on Delta's own
 * transaction ({@link io.sluice.delta.KeyedCommit}), the way Delta's DELETE with deletion vectors
 * writes, instead of a MERGE; and scans of small tables planned from their version's checksum
 * ({@link io.sluice.delta.ChecksumScans}).
 *
 * <p>These APIs are not Delta's public API and change between Delta releases: the version is
 * pinned in the build, and {@code KeyedCommitContractTest} checks the writer against Delta's own
 * MERGE on random batches, so an upgrade that breaks them fails the build, not a user. Written in
 * Java against the Scala classes (a few {@code Seq} and {@code Option} conversions) rather than as a
 * Scala source set: one compiler and one language for the whole project, for a surface of a few
 * calls.
 */
package io.sluice.delta;
