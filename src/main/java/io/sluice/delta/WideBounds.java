package io.sluice.delta;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.delta.actions.AddFile;

/**
 * A file's statistics as they must be once it gets a deletion vector: its bounds may no longer be
 * tight ({@code tightBounds} false), and a column whose every live row was NULL counts its NULLs
 * among all of the file's rows. What Delta's {@code updateStatsToWideBounds} computes over the
 * file list in a Spark job, here on the driver for one file whose statistics it already has.
 */
final class WideBounds {
  /** The statistics' fields in Delta's order; any other field is dropped, as Delta drops it. */
  private static final List<String> FIELDS = List.of("numRecords", "minValues", "maxValues", "nullCount", "tightBounds");
  // Numbers read as written: a decimal bound must not pass through a double.
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private WideBounds() {}

  /** {@code file} with its statistics' bounds made wide; empty when it has no row count to go by. */
  static Optional<AddFile> of(AddFile file) {
    if (file.stats() == null || file.stats().isEmpty()) {
      return Optional.empty();
    }
    JsonNode stats;
    try {
      stats = JSON.readTree(file.stats());
    } catch (IOException e) {
      throw new UncheckedIOException("the statistics of " + file.path() + " are not JSON", e);
    }
    if (!stats.path("numRecords").canConvertToLong()) {
      return Optional.empty();
    }
    long physical = stats.get("numRecords").asLong();
    long logical = physical - (file.deletionVector() == null ? 0 : file.deletionVector().cardinality());
    boolean tight = stats.path("tightBounds").asBoolean(false);
    ObjectNode wide = JSON.createObjectNode();
    for (String field : FIELDS) {
      if (field.equals("tightBounds")) {
        wide.put(field, false);
      } else if (field.equals("nullCount") && stats.has(field)) {
        wide.set(field, tight ? allNullsCountedPhysically(stats.get(field), logical, physical) : stats.get(field));
      } else if (stats.has(field)) {
        wide.set(field, stats.get(field));
      }
    }
    try {
      return Optional.of(file.copy(file.path(), file.partitionValues(), file.size(), file.modificationTime(),
          file.dataChange(), JSON.writeValueAsString(wide), file.tags(), file.deletionVector(), file.baseRowId(),
          file.defaultRowCommitVersion(), file.clusteringProvider(), file.backReference(), file.amtPassthrough()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The NULL counts, with a column that was NULL in every live row counted over every row. */
  private static JsonNode allNullsCountedPhysically(JsonNode counts, long logical, long physical) {
    if (!counts.isObject()) {
      return counts.canConvertToLong() && counts.asLong() == logical ? JSON.getNodeFactory().numberNode(physical) : counts;
    }
    ObjectNode result = JSON.createObjectNode();
    for (Iterator<Map.Entry<String, JsonNode>> fields = counts.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = fields.next();
      result.set(entry.getKey(), allNullsCountedPhysically(entry.getValue(), logical, physical));
    }
    return result;
  }
}
