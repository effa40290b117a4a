package io.sluice.kinds.autocdc;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.FlowExecutor;
import io.sluice.execution.FlowRun;
import io.sluice.execution.OnceMarker;
import io.sluice.execution.SourceFingerprint;
import io.sluice.graph.FlowMode;
import io.sluice.graph.SnapshotSource;
import java.util.Map;
import java.util.Optional;

/**
 * An AUTO CDC FROM SNAPSHOT flow (SEMANTICS §5). A periodic flow takes its query as one
 * snapshot per update, versioned by the update's start time; a historical flow asks its
 * source for the snapshot after the last applied version until there is none. Each
 * snapshot is checked, applied by a {@link SnapshotSink} and recorded in the flow's
 * {@link SnapshotLog} before the next is asked for.
 */
public final class SnapshotFlowExecutor implements FlowExecutor {
  private final Checkpoints checkpoints;
  private final FlowMode.AutoCdcFromSnapshot mode;

  public SnapshotFlowExecutor(Checkpoints checkpoints, FlowMode.AutoCdcFromSnapshot mode) {
    this.checkpoints = checkpoints;
    this.mode = mode;
  }

  @Override
  public void execute(FlowRun run) {
    OnceMarker once = new OnceMarker(checkpoints, run);
    if (mode.once() && once.done()) {
      return;
    }
    String appId = checkpoints.appId(run.target().name(), run.flow().name());
    SnapshotLog log = SnapshotLog.open(checkpoints.snapshotLog(run.target().name(), run.flow().name()));
    SnapshotSink sink = SnapshotSink.open(run, mode, appId, checkpoints);
    log.settle(SnapshotLog.committedTo(run.spark(), run.target().name(), appId), sink::afterCommit);
    Optional<Object> last = log.last().map(SnapshotEntry::version);
    // A ONCE flow that applied its snapshot but died before marking it done is done.
    while (!(mode.once() && last.isPresent())) {
      Optional<Object> previous = last;
      Optional<SnapshotSource.Versioned> next = run.withFlowConf(() -> next(run, previous));
      if (next.isEmpty()) {
        if (last.isEmpty()) {
          throw new SluiceException(ErrorClass.SNAPSHOT_NONE, run.flow().definition().origin(), "flow '" + run.flow().name()
              + "' got no snapshot on its first run; the first call must return one (its version query returned no row)");
        }
        break;
      }
      Optional<String> source = fingerprint(run, next.get());
      if (source.isPresent() && log.last().flatMap(SnapshotEntry::source).equals(withTargetVersion(run, source))) {
        run.unchanged("its source has not changed since its last snapshot; not read", Map.of("snapshot", log.nextNumber() - 1));
        break;
      }
      run.starting();
      Object version = checkVersion(run, next.get().version(), last);
      SnapshotEntry entry = new SnapshotEntry(
          log.nextNumber(), version, DeltaTarget.table(run.target().name()).version(run.spark()), Optional.empty());
      log.begin(entry);
      run.withFlowConf(() -> {
        SnapshotSink at = sink.at(entry);
        run.processBatch(at.conform(next.get().rows()), entry.number(), at);
        return null;
      });
      log.commit(entry.withSource(withTargetVersion(run, source)));
      last = Optional.of(version);
      if (mode.versions().isEmpty()) {
        break;
      }
    }
    if (mode.once()) {
      once.markDone();
    }
  }

  /**
   * A periodic snapshot's {@link SourceFingerprint}: equal to the last one's, the source did
   * not change and its snapshot would change nothing. Not for a target other flows write too,
   * whose keys may have changed since, nor for historical snapshots, each read once anyway.
   */
  private Optional<String> fingerprint(FlowRun run, SnapshotSource.Versioned next) {
    if (mode.versions().isPresent() || run.flowsIntoTarget().size() > 1) {
      return Optional.empty();
    }
    return run.withFlowConf(() -> SourceFingerprint.of(next.rows(), run.flow().definition().sqlConf()));
  }

  /** The fingerprint with the target's version: a target changed by hand is brought back by the next snapshot. */
  private static Optional<String> withTargetVersion(FlowRun run, Optional<String> source) {
    return source.map(s -> s + "@" + DeltaTarget.table(run.target().name()).version(run.spark()));
  }

  private Optional<SnapshotSource.Versioned> next(FlowRun run, Optional<Object> last) {
    if (mode.versions().isPresent()) {
      return mode.versions().get().next(run.resolution(), last);
    }
    return Optional.of(new SnapshotSource.Versioned(run.buildQuery(), run.roundStart()));
  }

  /** §5.4: a version is not NULL, can be ordered, and is greater than the last one applied. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object checkVersion(FlowRun run, Object version, Optional<Object> last) {
    String flow = "flow '" + run.flow().name() + "'";
    if (version == null) {
      throw new SluiceException(ErrorClass.SNAPSHOT_NULL_VERSION, run.flow().definition().origin(), flow
          + " got a snapshot whose version is NULL" + last.map(v -> " (after version " + v + ")").orElse("")
          + "; nothing of it was applied");
    }
    if (!(version instanceof Comparable comparable)) {
      throw new SluiceException(ErrorClass.SNAPSHOT_VERSION_NOT_ORDERABLE, run.flow().definition().origin(), flow
          + " got version " + version + " of type " + version.getClass().getName() + ", which cannot be ordered");
    }
    if (last.isPresent()) {
      int order;
      try {
        order = comparable.compareTo(last.get());
      } catch (ClassCastException e) {
        throw new SluiceException(ErrorClass.SNAPSHOT_VERSION_TYPE_CHANGED, run.flow().definition().origin(), flow + " got version "
            + version + " (" + version.getClass().getSimpleName() + ") after version " + last.get() + " ("
            + last.get().getClass().getSimpleName() + "); a full refresh starts the flow's versions again", e);
      }
      if (order <= 0) {
        throw new SluiceException(ErrorClass.SNAPSHOT_VERSION_NOT_INCREASING, run.flow().definition().origin(), flow
            + " got version " + version + ", which is not greater than the last applied version " + last.get()
            + "; nothing of it was applied");
      }
    }
    return version;
  }
}
