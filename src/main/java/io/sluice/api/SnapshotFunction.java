package io.sluice.api;

import java.util.Optional;

/**
 * The source of a historical AUTO CDC FROM SNAPSHOT flow (SEMANTICS §5.2): given the last
 * version processed (none on the first call, or after a full refresh), it returns the next
 * snapshot, or nothing when no newer one exists yet. Each update calls it until it returns
 * nothing; the first call ever must return a snapshot.
 *
 * <pre>{@code
 * (ctx, last) -> {
 *   long next = last.map(v -> v + 1).orElse(1L);
 *   Path file = exports.resolve(next + ".csv"); // exports: an absolute folder
 *   return Files.exists(file)
 *       ? Optional.of(Snapshot.of(ctx.spark().read().option("header", true).csv(file.toString()), next))
 *       : Optional.empty();
 * }
 * }</pre>
 *
 * @param <V> the versions' type: a number, string, date or timestamp class
 */
@FunctionalInterface
public interface SnapshotFunction<V extends Comparable<? super V>> {
  Optional<Snapshot<V>> next(FlowContext context, Optional<V> lastVersion);
}
