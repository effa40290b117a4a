package io.sluice.execution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.graph.DatasetName;
import io.sluice.storage.StoragePath;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * The batch a streaming flow is committing, kept in its checkpoint: its number, and the
 * Delta version of each table it writes as it began. Every commit of the batch carries its
 * {@link CommitTag}. Spark runs a batch again when a crash came before it recorded the
 * batch's end; that run finds here where to look, and makes only the commits it does not
 * find (SEMANTICS §7.1).
 *
 * <p>A checkpoint from before this log (the flow had run, the log is missing) has its first
 * batch written under Delta's record of app versions, as Sluice did then; the log starts
 * with it.
 */
public final class BatchLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FILE = "sluice-batch";
  private static final String BATCH = "batch";
  private static final String VERSIONS = "table_versions_before";
  private final StoragePath file;
  private final String appId;
  private boolean legacy;

  private BatchLog(StoragePath file, String appId, boolean legacy) {
    this.file = file;
    this.appId = appId;
    this.legacy = legacy;
  }

  /** The log of the flow whose checkpoint is {@code checkpoint}, before the flow's query starts. */
  static BatchLog open(Checkpoints checkpoints, FlowRun run) {
    boolean hadRun = checkpoints.hasAppId(run.target().name(), run.flow().name());
    String appId = checkpoints.appId(run.target().name(), run.flow().name());
    StoragePath file = checkpoints.location(run.target().name(), run.flow().name()).resolve(FILE);
    return new BatchLog(file, appId, hadRun && !file.exists());
  }

  /**
   * Begins batch {@code batch}, which writes {@code tables}: records their versions, unless
   * the batch is the one recorded, begun before by a run that did not finish it.
   */
  public BatchCommits begin(SparkSession spark, long batch, List<DeltaTarget> tables) {
    CommitTag tag = new CommitTag(appId, batch);
    if (legacy) {
      legacy = false;
      write(record(spark, batch, tables));
      return BatchCommits.legacy(tag);
    }
    Optional<BegunBatch> pending = read(file);
    if (pending.isPresent() && pending.get().batch() == batch) {
      return BatchCommits.resumed(tag, pending.get());
    }
    write(record(spark, batch, tables));
    return BatchCommits.fresh(tag);
  }

  /**
   * The batch flow {@code flow} began and did not record as ended (Spark's {@code commits} in
   * its checkpoint, or the mark of a flow that runs once), if any: some of its commits may be
   * made and others not.
   */
  public static Optional<BegunBatch> unfinished(Checkpoints checkpoints, DatasetName target, DatasetName flow) {
    StoragePath checkpoint = checkpoints.location(target, flow);
    return read(checkpoint.resolve(FILE))
        .filter(p -> !checkpoint.resolve("commits").resolve(String.valueOf(p.batch())).exists()
            && !OnceMarker.isDone(checkpoint));
  }

  private static Optional<BegunBatch> read(StoragePath file) {
    Optional<String> text = file.readIfExists();
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(text.get());
      Map<String, Long> versions = new LinkedHashMap<>();
      node.path(VERSIONS).fields().forEachRemaining(e -> versions.put(e.getKey(), e.getValue().asLong()));
      return Optional.of(new BegunBatch(node.path(BATCH).asLong(), versions));
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot read the batch log " + file + ": " + e.getMessage(), e);
    }
  }

  private static BegunBatch record(SparkSession spark, long batch, List<DeltaTarget> tables) {
    Map<String, Long> versions = new LinkedHashMap<>();
    for (DeltaTarget table : tables) {
      versions.put(table.key(), table.version(spark));
    }
    return new BegunBatch(batch, versions);
  }

  private void write(BegunBatch pending) {
    ObjectNode node = JSON.createObjectNode();
    node.put(BATCH, pending.batch());
    ObjectNode versions = node.putObject(VERSIONS);
    pending.versionsBefore().forEach(versions::put);
    file.write(node.toString() + "\n");
  }
}
