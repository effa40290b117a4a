package io.sluice.delta;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.sluice.common.Identifiers;
import io.sluice.graph.FlowConf;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.FileAction;
import org.apache.spark.sql.delta.commands.DMLWithDeletionVectorsHelper;
import org.apache.spark.sql.delta.commands.DeletionVectorBitmapGenerator;
import org.apache.spark.sql.delta.commands.DeletionVectorResult;
import org.apache.spark.sql.delta.commands.TouchedFileWithDV;
import org.apache.spark.sql.delta.commands.cdc.CDCReader;
import org.apache.spark.sql.delta.files.TahoeBatchFileIndex;
import org.apache.spark.sql.delta.sources.DeltaSQLConf;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One keyed batch written to a Delta table in one commit, without a MERGE: the current rows of
 * some keys go, marked in deletion vectors, and the batch's rows come, appended; the way Delta's
 * own DELETE and UPDATE write with deletion vectors.
 *
 * <p>A MERGE joins its source with the target three times (to find the touched files, to write
 * the changes, to write the deletion vectors). A keyed batch knows more than a MERGE: which rows
 * come (it computed them) and which keys lose their rows. So the target is read once, only its
 * key columns and each row's file and position, in the files that the scope's literal bounds
 * leave ({@code filterFiles}, Delta's data skipping, through the transaction so that Delta's
 * conflict checks hold as for a MERGE); then the rows that come are written, and both go into one
 * commit. The table stays a plain Delta table that any reader reads.
 *
 * <p>A table whose change data feed is on gets the feed's files in the same commit, with the
 * rows a MERGE would record: the rows that go as {@link #DELETE} (or the kind their key's row in
 * {@link #removing} names in a {@link #CHANGE_TYPE} column, e.g. {@link #UPDATE_PREIMAGE}), the
 * rows that come as {@link #INSERT} (or the kind their own {@link #CHANGE_TYPE} names). The scan
 * then reads the whole rows that go, not only their keys.
 *
 * <p>Only for tables {@link WriterSupport} accepts; the caller uses a MERGE for the others.
 */
public final class KeyedCommit {
  /** The column that names a row's kind of change in the table's change data feed. */
  public static final String CHANGE_TYPE = CDCReader.CDC_TYPE_COLUMN_NAME();
  public static final String INSERT = CDCReader.CDC_TYPE_INSERT();
  public static final String DELETE = CDCReader.CDC_TYPE_DELETE_STRING();
  public static final String UPDATE_PREIMAGE = CDCReader.CDC_TYPE_UPDATE_PREIMAGE();
  public static final String UPDATE_POSTIMAGE = CDCReader.CDC_TYPE_UPDATE_POSTIMAGE();
  private static final String USER_METADATA = "spark.databricks.delta.commitInfo.userMetadata";
  private static final String KEY_PREFIX = "__sluice_key_";
  private static final int ATTEMPTS = 3;
  private static final String ADAPTIVE = "spark.sql.adaptive.enabled";

  private final SparkSession session;
  private final DeltaLog log;
  private final Snapshot snapshot;
  private final String operation;
  private Dataset<Row> goingKeys;
  private List<String> keyColumns = List.of();
  private Column scope = lit(true);
  private Dataset<Row> coming;
  /**
   * Runs in every keyed commit between its writes and its commit: where a test makes a concurrent
   * writer commit first, or the process fail with the batch's files written and not committed.
   */
  static volatile Runnable beforeCommit = () -> {};
  private final Map<String, Object> parameters = new LinkedHashMap<>();
  private final Map<String, Long> metrics = new LinkedHashMap<>();

  private KeyedCommit(SparkSession session, DeltaLog log, Snapshot snapshot, String operation) {
    this.session = session;
    this.log = log;
    this.snapshot = snapshot;
    this.operation = operation;
  }

  /**
   * A commit to the table of {@code log} as of {@code snapshot}, named {@code operation} in its
   * history.
   */
  public static KeyedCommit to(SparkSession session, DeltaLog log, Snapshot snapshot, String operation) {
    return new KeyedCommit(session, log, snapshot, operation);
  }

  /**
   * The target rows that go: those whose {@code columns} equal (NULL matching NULL) a row of
   * {@code keys}, among the rows that {@code scope} holds for. With a {@link #CHANGE_TYPE}
   * column, {@code keys} must hold each key once.
   *
   * @param scope a predicate on the target's rows, aliased {@code t}, true for every row that
   *     goes: its literal bounds let Delta skip the files it excludes
   */
  public KeyedCommit removing(Dataset<Row> keys, List<String> columns, Column scope) {
    this.goingKeys = keys;
    this.keyColumns = List.copyOf(columns);
    this.scope = scope;
    return this;
  }

  /** The rows that come, with the table's columns (and possibly {@link #CHANGE_TYPE}). */
  public KeyedCommit appending(Dataset<Row> rows) {
    this.coming = rows;
    return this;
  }

  /** A parameter shown in the commit's history entry. */
  public KeyedCommit parameter(String name, Object value) {
    parameters.put(name, value);
    return this;
  }

  /** A metric of the commit's history entry besides the writer's own (rows and files added and removed). */
  public KeyedCommit metric(String name, long value) {
    metrics.put(name, value);
    return this;
  }

  /**
   * What one commit did: its version (empty when there was nothing to commit), the rows it removed
   * and added, and how many tries it took (more than one after losing to a concurrent writer).
   */
  public record Committed(Optional<Long> version, long rowsRemoved, long rowsAdded, int attempts) {}

  /**
   * Finds the rows that go, writes the rows that come, and commits both at once. A commit that
   * loses to a concurrent writer (an OPTIMIZE, a user's DELETE on the same files) is made again
   * on the table's new version, up to {@value #ATTEMPTS} times in all: the batch's inputs are
   * cached, so only the target's read and the writes are done again (files written by the lost
   * attempt are never committed; VACUUM removes them).
   */
  public Committed commit() {
    Snapshot current = snapshot;
    for (int attempt = 1; ; attempt++) {
      try {
        return commitOn(current, attempt);
      } catch (ConcurrentModificationException e) {
        if (attempt == ATTEMPTS) {
          throw e;
        }
        current = log.update(false, Option.empty(), Option.empty());
      }
    }
  }

  private Committed commitOn(Snapshot base, int attempt) {
    long started = System.currentTimeMillis();
    OptimisticTransaction txn = log.startTransaction(Option.empty(), Option.apply(base));
    boolean feed = CDCReader.isCDCEnabledOnTable(txn.metadata(), session);
    List<Action> actions = new ArrayList<>();
    Map<String, Long> counts = new LinkedHashMap<>();
    Going going = null;
    long removed = 0;
    long added = 0;
    long addedFiles = 0;
    long addedBytes = 0;
    try {
      if (goingKeys != null) {
        going = withoutAdaptiveExecution(() -> going(txn, feed));
        Going found = going;
        removed = found == null ? 0 : withoutAdaptiveExecution(() -> markRemoved(txn, found, actions, counts));
      }
      Dataset<Row> written = written(txn, feed, removed > 0 ? going.rows() : null);
      if (written != null) {
        for (FileAction action : CollectionConverters.asJava(txn.writeFiles(written))) {
          actions.add(action);
          if (action instanceof AddFile file) {
            addedFiles++;
            addedBytes += file.size();
            added += file.numLogicalRecords().isDefined() ? (Long) file.numLogicalRecords().get() : 0;
          }
        }
      }
    } finally {
      if (going != null) {
        going.rows().unpersist();
      }
    }
    // Delta's own switch decides whether a commit that changes no file is recorded: one whose user
    // metadata carries state (a view's refresh) is.
    boolean recordEmpty = !(Boolean) session.sessionState().conf().getConf(DeltaSQLConf.DELTA_SKIP_RECORDING_EMPTY_COMMITS());
    if (actions.isEmpty() && !recordEmpty) {
      return new Committed(Optional.empty(), 0, 0, attempt);
    }
    Map<String, Long> all = new LinkedHashMap<>(metrics);
    all.put("numDeletedRows", removed);
    all.put("numOutputRows", added);
    all.put("numTargetRowsCopied", 0L);
    all.put("numAddedFiles", addedFiles);
    all.put("numAddedBytes", addedBytes);
    all.putAll(counts);
    all.put("executionTimeMs", System.currentTimeMillis() - started);
    KeyedOperation op = new KeyedOperation(operation, parameters, all, session.conf().getOption(USER_METADATA));
    beforeCommit.run();
    Option<Object> version = recordEmpty ? Option.apply(txn.commit(Scala.seq(actions), op))
        : txn.commitIfNeeded(Scala.seq(actions), op, Scala.map(Map.of()));
    return new Committed(version.isDefined() ? Optional.of((Long) version.get()) : Optional.empty(), removed, added,
        attempt);
  }

  /**
   * Runs {@code body} without adaptive execution, which would run the file filtering's aggregate
   * and the scan's join with the keys as a Spark job per stage: five jobs for a batch of ten
   * rows, three without.
   */
  private <T> T withoutAdaptiveExecution(Supplier<T> body) {
    return FlowConf.withSqlConf(session, Map.of(ADAPTIVE, "false"), body);
  }

  /** The target's rows that go, with their file and row index, and the files that may hold them. */
  private record Going(Dataset<Row> rows, FileSkipping.Candidates candidates) {}

  /**
   * The target's rows that go: read once, through the transaction, from the files the scope
   * leaves; cached when the feed needs their values besides. Null when no file can hold one.
   */
  private Going going(OptimisticTransaction txn, boolean feed) {
    Dataset<Row> whole = log.createDataFrame(txn.snapshot(), Scala.seq(List.of()), false, Option.empty()).as("t");
    FileSkipping.Candidates chosen = FileSkipping.forCommit(session, txn, FileSkipping.condition(whole, scope));
    Seq<AddFile> candidates = chosen.files();
    if (candidates.isEmpty()) {
      return null;
    }
    TahoeBatchFileIndex files = new TahoeBatchFileIndex(session, "sluice", candidates, log, log.dataPath(),
        txn.snapshot(), false);
    Dataset<Row> scan = DMLWithDeletionVectorsHelper.createTargetDfForScanningForMatches(session,
        log.createDataFrame(txn.snapshot(), candidates, false, Option.empty()).queryExecution().analyzed(), files);
    List<Column> located = new ArrayList<>();
    if (feed) {
      for (String column : txn.metadata().schema().fieldNames()) {
        located.add(col("t." + Identifiers.quote(column)).as(column));
      }
    }
    Column match = lit(true);
    for (int i = 0; i < keyColumns.size(); i++) {
      located.add(col("t." + Identifiers.quote(keyColumns.get(i))).as(KEY_PREFIX + i));
      match = match.and(col("l." + KEY_PREFIX + i).eqNullSafe(col("k." + Identifiers.quote(keyColumns.get(i)))));
    }
    located.add(col("_metadata.file_path").as(DeletionVectorBitmapGenerator.FILE_NAME_COL()));
    located.add(col("_metadata.row_index").as(DeletionVectorBitmapGenerator.ROW_INDEX_COL()));
    Dataset<Row> rows = scan.as("t").where(scope).select(located.toArray(Column[]::new)).as("l");
    if (!feed) {
      return new Going(rows.join(goingKeys.as("k"), match, "left_semi"), chosen);
    }
    Column kind = List.of(goingKeys.columns()).contains(CHANGE_TYPE) ? col("k." + CHANGE_TYPE) : lit(DELETE);
    Dataset<Row> withKind = rows.join(goingKeys.as("k"), match).select(col("l.*"), kind.as(CHANGE_TYPE));
    return new Going(withKind.persist(), chosen);
  }

  /**
   * Marks the rows that go in deletion vectors, merged with each file's existing one; adds the
   * actions that say so; returns how many rows it marked.
   */
  private long markRemoved(OptimisticTransaction txn, Going going, List<Action> actions, Map<String, Long> counts) {
    Seq<AddFile> candidates = going.candidates().files();
    Seq<DeletionVectorResult> vectors = DeletionVectors.write(session, txn, going.rows(), candidates);
    Seq<TouchedFileWithDV> touched = DMLWithDeletionVectorsHelper.findFilesWithMatchingRows(txn,
        DMLWithDeletionVectorsHelper.generateCandidateFileMap(log.dataPath(), candidates), vectors);
    if (touched.isEmpty()) {
      return 0;
    }
    TouchedFiles.Marked marked = TouchedFiles.mark(session, txn.snapshot(), touched, going.candidates().withStats());
    actions.addAll(marked.actions());
    counts.putAll(marked.metrics());
    return marked.rows();
  }

  /**
   * What {@code writeFiles} writes: the rows that come and, when the feed is on, the feed's rows
   * (a {@link #CHANGE_TYPE} that Delta writes to the feed's files instead); null for nothing.
   */
  private Dataset<Row> written(OptimisticTransaction txn, boolean feed, Dataset<Row> going) {
    // writeFiles writes the rows' own types: a value not cast to its column's type would make a
    // file that no reader of the table can read.
    Column[] columns = Arrays.stream(txn.metadata().schema().fields())
        .map(f -> col(Identifiers.quote(f.name())).cast(f.dataType()).as(f.name())).toArray(Column[]::new);
    Dataset<Row> data = coming == null ? null : coming.select(columns);
    if (!feed) {
      return data;
    }
    List<Dataset<Row>> parts = new ArrayList<>();
    if (coming != null) {
      Column kind = List.of(coming.columns()).contains(CHANGE_TYPE) ? col(CHANGE_TYPE) : lit(INSERT);
      parts.add(data.withColumn(CHANGE_TYPE, lit(null).cast("string")));
      parts.add(coming.select(withKind(columns, kind)));
    }
    if (going != null) {
      parts.add(going.select(withKind(columns, col(CHANGE_TYPE))));
    }
    return parts.stream().reduce(Dataset::unionByName).orElse(null);
  }

  private static Column[] withKind(Column[] columns, Column kind) {
    Column[] all = Arrays.copyOf(columns, columns.length + 1);
    all[columns.length] = kind.as(CHANGE_TYPE);
    return all;
  }
}
