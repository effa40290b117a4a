package io.sluice.kinds.autocdc;

import java.util.Optional;

/**
 * One snapshot of an AUTO CDC FROM SNAPSHOT flow, as its {@link SnapshotLog} records it: its
 * number in the flow's sequence, its version, the target's Delta version before the snapshot
 * was applied (so its commit is after it), and, once applied, what it read and left: its
 * {@link SourceFingerprint} with the target's version after it, when the source has a fingerprint.
 */
record SnapshotEntry(long number, Object version, long tableVersionBefore, Optional<String> source) {
  SnapshotEntry withSource(Optional<String> readAndLeft) {
    return new SnapshotEntry(number, version, tableVersionBefore, readAndLeft);
  }
}
