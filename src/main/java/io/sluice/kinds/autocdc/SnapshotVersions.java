package io.sluice.kinds.autocdc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * A snapshot version as readable, typed JSON ({@code {"type": "timestamp", "value":
 * "2026-11-30 08:00:00.0"}}): the Java value Spark gives for the versions' SQL type,
 * written so that it reads back equal, whichever JVM or Sluice version reads it.
 */
final class SnapshotVersions {
  private record Codec(String type, Class<?> javaClass, Function<Object, String> write, Function<String, Object> read) {}

  private static final List<Codec> CODECS = List.of(
      new Codec("bigint", Long.class, String::valueOf, Long::valueOf),
      new Codec("int", Integer.class, String::valueOf, Integer::valueOf),
      new Codec("smallint", Short.class, String::valueOf, Short::valueOf),
      new Codec("tinyint", Byte.class, String::valueOf, Byte::valueOf),
      new Codec("double", Double.class, String::valueOf, Double::valueOf),
      new Codec("float", Float.class, String::valueOf, Float::valueOf),
      new Codec("decimal", BigDecimal.class, v -> ((BigDecimal) v).toString(), BigDecimal::new),
      new Codec("boolean", Boolean.class, String::valueOf, Boolean::valueOf),
      new Codec("string", String.class, v -> (String) v, v -> v),
      new Codec("date", Date.class, String::valueOf, Date::valueOf),
      new Codec("local_date", LocalDate.class, String::valueOf, LocalDate::parse),
      new Codec("timestamp", Timestamp.class, String::valueOf, Timestamp::valueOf),
      new Codec("instant", Instant.class, String::valueOf, Instant::parse),
      new Codec("timestamp_ntz", LocalDateTime.class, String::valueOf, LocalDateTime::parse),
      new Codec("binary", byte[].class, v -> Base64.getEncoder().encodeToString((byte[]) v), Base64.getDecoder()::decode));

  private SnapshotVersions() {}

  static ObjectNode toJson(Object version) {
    Codec codec = CODECS.stream().filter(c -> c.javaClass().isInstance(version)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("a snapshot version of Java type "
            + version.getClass().getName() + " cannot be recorded; versions are numbers, strings, dates or timestamps"));
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("type", codec.type());
    node.put("value", codec.write().apply(version));
    return node;
  }

  static Object fromJson(JsonNode node) {
    String type = node.path("type").asText();
    Codec codec = CODECS.stream().filter(c -> c.type().equals(type)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown snapshot version type '" + type + "' in " + node));
    return codec.read().apply(node.path("value").asText());
  }
}
