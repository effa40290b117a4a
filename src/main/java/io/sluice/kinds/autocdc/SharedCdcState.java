package io.sluice.kinds.autocdc;

import static io.sluice.execution.ColumnNames.col;
import static org.apache.spark.sql.functions.current_timestamp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.when;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import io.sluice.execution.BatchLog;
import io.sluice.execution.BegunBatch;
import io.sluice.execution.Checkpoints;
import io.sluice.execution.ColumnNames;
import io.sluice.execution.CommitTag;
import io.sluice.execution.DeltaTarget;
import io.sluice.execution.DeltaWrites;
import io.sluice.execution.FlowRun;
import io.sluice.graph.ChangeFeed;
import io.sluice.graph.DatasetName;
import io.sluice.graph.FlowMode;
import io.sluice.graph.ResolvedFlow;
import io.sluice.storage.StoragePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The AUTO CDC state store of an SCD type 1 target that snapshot and change-feed flows share
 * (SEMANTICS §5.5), as the snapshot flows see it: which keys have newer change events, and
 * where a snapshot's changes are recorded as events at its version.
 *
 * <p>Each kind of flow commits the target first and the store second. Before either writes,
 * the other kind's half-done work is settled: a snapshot left between its two commits is
 * finished ({@link #settleSnapshots}), and a snapshot does not start while a change-feed batch
 * is in that state ({@link #refuseUnfinishedBatches}), since only that flow can finish it.
 */
final class SharedCdcState {
  private static final String CHANGE_TYPE = "_change_type";
  private final CdcStateStore store;
  private final CdcEvents events;

  SharedCdcState(CdcStateStore store, CdcEvents events) {
    this.store = store;
    this.events = events;
  }

  /** The shared state of a snapshot flow's target, if AUTO CDC flows write it too. */
  static Optional<SharedCdcState> of(FlowRun run, Checkpoints checkpoints) {
    for (ResolvedFlow flow : run.flowsIntoTarget()) {
      if (flow.definition().mode() instanceof FlowMode.AutoCdc cdc) {
        CdcEvents events = new CdcEvents(flow, cdc);
        StoragePath path = checkpoints.autoCdcState(run.target().name());
        return Optional.of(new SharedCdcState(CdcStateStore.open(run.spark(), path, events.storeSchema()), events));
      }
    }
    return Optional.empty();
  }

  /**
   * Before an AUTO CDC flow writes a shared target: finishes each snapshot flow's snapshot
   * that a crash left between the target's commit and the store's.
   */
  void settleSnapshots(FlowRun run, Checkpoints checkpoints) {
    DatasetName target = run.target().name();
    for (ResolvedFlow flow : run.flowsIntoTarget()) {
      if (flow.definition().mode() instanceof FlowMode.AutoCdcFromSnapshot) {
        SnapshotLog log = SnapshotLog.open(checkpoints.snapshotLog(target, flow.name()));
        String appId = checkpoints.appId(target, flow.name());
        log.settle(SnapshotLog.committedTo(run.spark(), target, appId),
            pending -> recordCommit(run.spark(), target, appId, pending));
      }
    }
  }

  /**
   * Before a snapshot writes a shared target: refuses to start while an AUTO CDC flow's batch
   * is committed to the target but not to the store; that flow finishes it when it runs.
   */
  void refuseUnfinishedBatches(FlowRun run, Checkpoints checkpoints) {
    DatasetName target = run.target().name();
    for (ResolvedFlow flow : run.flowsIntoTarget()) {
      if (flow.definition().mode() instanceof FlowMode.AutoCdc) {
        Optional<BegunBatch> batch = BatchLog.unfinished(checkpoints, target, flow.name());
        if (batch.isEmpty()) {
          continue;
        }
        String appId = checkpoints.appId(target, flow.name());
        if (batch.get().madeOn(run.spark(), DeltaTarget.table(target), appId)
            && !batch.get().madeOn(run.spark(), store.target(), appId)) {
          throw new SluiceException(ErrorClass.AUTO_CDC_BATCH_UNFINISHED, run.flow().definition().origin(), "flow '"
              + run.flow().name() + "' waits: AUTO CDC flow '" + flow.name() + "' stopped in the middle of batch "
              + batch.get().batch() + " on '" + target + "', which it finishes when it runs; run the update again");
        }
      }
    }
  }

  /** The changes, less those of keys whose last change event is newer than the snapshot. */
  Dataset<Row> withoutNewerKeys(SparkSession session, Dataset<Row> changes, Column at) {
    Dataset<Row> newer = store.read(session).where(col(CdcEvents.SEQ).gt(at)).select(ColumnNames.cols(events.keys()));
    Column sameKey = lit(true);
    for (String key : events.keys()) {
      sameKey = sameKey.and(col("c", columnsKey(changes, key)).equalTo(col("n", key)));
    }
    return changes.as("c").join(newer.as("n"), sameKey, "left_anti");
  }

  /**
   * Records each key that snapshot {@code snapshot}'s commit changed in the target as an
   * event at the snapshot's version: an upsert of its new values, or a delete. The commit is
   * found by its (app id, snapshot number); a key with a newer event keeps it.
   */
  void recordCommit(SparkSession session, DatasetName target, String appId, SnapshotEntry snapshot) {
    CommitTag tag = new CommitTag(appId, snapshot.number());
    long commit = DeltaWrites.commitOf(session, DeltaTarget.table(target), tag, snapshot.tableVersionBefore() + 1);
    if (commit < 0) {
      return;
    }
    Column at = lit(snapshot.version());
    Dataset<Row> committed = session.read().format("delta")
        .option(ChangeFeed.READ_OPTION, "true")
        .option("startingVersion", commit)
        .option("endingVersion", commit)
        .table(target.quoted())
        .where(col(CHANGE_TYPE).notEqual(lit("update_preimage")));
    Dataset<Row> after = withoutNewerKeys(session,
        committed.select(event(committed, at, col(CHANGE_TYPE).equalTo(lit("delete")))), event(at));
    // An event already stored at the snapshot's version gives way to the snapshot's (§5.5).
    Column sameEvent = col("s", CdcEvents.SEQ).equalTo(col("a", CdcEvents.SEQ));
    for (String key : events.keys()) {
      sameEvent = sameEvent.and(col("s", key).equalTo(col("a", key)));
    }
    Column on = sameEvent;
    // The store's version before this MERGE is not recorded: Delta's record of app versions tells.
    DeltaWrites.idempotently(session, tag, () -> {
      store.table(session).as("s").merge(after.as("a"), on).whenMatched().updateAll().whenNotMatched().insertAll()
          .withSchemaEvolution().execute();
      return null;
    });
  }

  /** The snapshot's version as the store's sequence. */
  private Column event(Column at) {
    return at.cast(events.storeSchema().apply(CdcEvents.SEQ).dataType());
  }

  /** A changed row as the store keeps events: the AUTO CDC flows' columns, NULL where the snapshot has none. */
  private Column[] event(Dataset<Row> changes, Column at, Column isDelete) {
    StructType schema = events.storeSchema();
    List<Column> event = new ArrayList<>();
    for (String key : events.keys()) {
      event.add(col(columnsKey(changes, key)).as(key));
    }
    event.add(event(at).as(CdcEvents.SEQ));
    event.add(when(isDelete, lit(CdcEvents.DELETE)).otherwise(lit(CdcEvents.UPSERT)).as(CdcEvents.OP));
    List<Column> values = new ArrayList<>();
    for (StructField value : ((StructType) schema.apply(CdcEvents.VALUES).dataType()).fields()) {
      Column present = Identifiers.field(changes.schema(), value.name()).map(f -> col(f.name())).orElse(lit(null));
      values.add(present.cast(value.dataType()).as(value.name()));
    }
    event.add(struct(values.toArray(Column[]::new)).as(CdcEvents.VALUES));
    event.add(current_timestamp().as(CdcEvents.RECORDED_AT));
    return event.toArray(Column[]::new);
  }

  private static String columnsKey(Dataset<Row> changes, String key) {
    return Identifiers.field(changes.schema(), key).map(StructField::name).orElse(key);
  }
}
