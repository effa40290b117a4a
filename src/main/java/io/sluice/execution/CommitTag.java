package io.sluice.execution;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.CommitInfo;
import org.apache.spark.sql.delta.actions.SetTransaction;
import scala.Option;

/**
 * Which batch of which flow made a Delta commit: the flow's app id and the batch (or
 * snapshot) number, carried in the commit's user metadata as
 * {@code {"sluice":{"app":"...","batch":n}}}.
 *
 * <p>Why not Delta's own record of app versions ({@code txnAppId}/{@code txnVersion}): Delta
 * answers "has this app version committed?" from the table's full log state, a replay of
 * the log that costs Spark jobs and a second or so on every commit, and only a batch that
 * runs again after a crash needs the answer. A tag costs nothing to write, and the rare
 * replayed batch reads the few commits made since it began ({@link BatchLog}).
 */
public record CommitTag(String appId, long batch) {
  /** Session settings naming the update and the flow that run, which tags carry for {@code sluice history}. */
  public static final String UPDATE_CONF = "spark.sluice.update.id";
  public static final String FLOW_CONF = "spark.sluice.flow.name";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SLUICE = "sluice";

  /** The user metadata of a commit carrying this tag, with the update and flow that {@code session} runs. */
  String json(SparkSession session) {
    return json(session.conf().getOption(UPDATE_CONF), session.conf().getOption(FLOW_CONF));
  }

  /** The user metadata of a commit carrying this tag alone. */
  String json() {
    return json(Option.empty(), Option.empty());
  }

  /**
   * The user metadata of a commit carrying this tag and {@code value} as {@code field}: what a
   * flow keeps in its own commits, so that it commits with them (a materialized view's refresh state).
   */
  public String json(SparkSession session, String field, JsonNode value) {
    ObjectNode root = (ObjectNode) read(json(session));
    ((ObjectNode) root.path(SLUICE)).set(field, value);
    return root.toString();
  }

  /** The {@code field} that {@link #json(SparkSession, String, JsonNode)} put in a commit's user metadata, if it is there. */
  public static Optional<JsonNode> field(String userMetadata, String field) {
    JsonNode value = userMetadata == null ? null : read(userMetadata).path(SLUICE).get(field);
    return Optional.ofNullable(value);
  }

  private static JsonNode read(String userMetadata) {
    try {
      return JSON.readTree(userMetadata);
    } catch (JsonProcessingException e) {
      return JSON.createObjectNode(); // someone else's metadata, not JSON
    }
  }

  private String json(Option<String> update, Option<String> flow) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode tag = root.putObject(SLUICE).put("app", appId).put("batch", batch);
    if (update.isDefined()) {
      tag.put("update", update.get());
    }
    if (flow.isDefined()) {
      tag.put("flow", flow.get());
    }
    return root.toString();
  }

  /** What a commit's user metadata says made it: update, flow, batch; empty for a commit without a tag. */
  public static Optional<Made> madeBy(String userMetadata) {
    if (userMetadata == null) {
      return Optional.empty();
    }
    try {
      JsonNode tag = JSON.readTree(userMetadata).path(SLUICE);
      if (!tag.path("batch").canConvertToLong()) {
        return Optional.empty();
      }
      return Optional.of(new Made(Optional.ofNullable(tag.path("update").asText(null)),
          Optional.ofNullable(tag.path("flow").asText(null)), tag.path("batch").asLong()));
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** The update, flow and batch (or snapshot number) of a commit; commits tagged before Sluice recorded the first two lack them. */
  public record Made(Optional<String> update, Optional<String> flow, long batch) {}

  /**
   * Whether the commit of {@code actions} carries this tag, or, made before tags existed,
   * Delta's record of the same app version.
   */
  boolean marks(List<Action> actions) {
    for (Action action : actions) {
      if (action instanceof CommitInfo info && info.userMetadata().isDefined() && isIn(info.userMetadata().get())) {
        return true;
      }
      if (action instanceof SetTransaction txn && txn.appId().equals(appId) && txn.version() == batch) {
        return true;
      }
    }
    return false;
  }

  /** Whether a commit's user metadata is this tag. */
  boolean isIn(String userMetadata) {
    try {
      JsonNode tag = JSON.readTree(userMetadata).path(SLUICE);
      return appId.equals(tag.path("app").asText(null)) && tag.path("batch").canConvertToLong()
          && tag.path("batch").asLong() == batch;
    } catch (JsonProcessingException e) {
      return false; // someone else's metadata, not JSON
    }
  }
}
