package io.sluice.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.common.Identifiers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * Writes a test's rows as a file of a source's own format, so that the pipeline's real reader,
 * schema and rescued data column read them: JSON and CSV as the text a producer writes, other
 * formats (Parquet, ORC, Avro) by Spark's writer with the source's schema.
 */
final class SourceFiles {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Spark's option naming the column a permissive reader keeps unparsed records in: not a field of the files. */
  private static final String CORRUPT_RECORD = "columnnameofcorruptrecord";

  private SourceFiles() {}

  /**
   * Refuses a row with a field that the source's schema lacks: the reader would drop it
   * silently, and the test would check something else than its author meant.
   */
  static void checkFields(FileSource source, GivenRows given) {
    List<StructField> fields = fields(source);
    if (fields.isEmpty()) {
      return; // a schema inferred from the files themselves takes any field
    }
    for (int i = 0; i < given.rows().size(); i++) {
      for (String field : given.rows().get(i).keySet()) {
        if (fields.stream().noneMatch(f -> Identifiers.sameColumn(f.name(), field))) {
          throw new SluiceException(ErrorClass.TEST_FIELD_UNKNOWN, given.origin(), "row " + (i + 1) + " of '" + given.source()
              + "' has a field '" + field + "' that its files do not have; they have "
              + fields.stream().map(StructField::name).collect(Collectors.joining(", ")));
        }
      }
    }
  }

  /** Writes {@code rows} as {@code file}, replacing it. */
  static void write(SparkSession spark, FileSource source, Path file, List<Map<String, Object>> rows) {
    try {
      Files.createDirectories(file.getParent());
      switch (source.files().format()) {
        case "json" -> Files.writeString(file, jsonLines(rows));
        case "csv" -> Files.writeString(file, csv(source, rows));
        default -> writeWithSpark(spark, source, file, rows);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  static String jsonLines(List<Map<String, Object>> rows) {
    StringBuilder lines = new StringBuilder();
    for (Map<String, Object> row : rows) {
      try {
        lines.append(JSON.writeValueAsString(plain(row))).append('\n');
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("a row that is no JSON: " + row, e);
      }
    }
    return lines.toString();
  }

  /** Values a test gives in Java (dates, times) as the text their files would hold. */
  private static Map<String, Object> plain(Map<String, Object> row) {
    Map<String, Object> values = new java.util.LinkedHashMap<>();
    row.forEach((k, v) -> values.put(k, v == null || v instanceof Number || v instanceof Boolean ? v : v.toString()));
    return values;
  }

  /** CSV with the source's separator, its columns in the schema's order, a header when the reader takes one. */
  private static String csv(FileSource source, List<Map<String, Object>> rows) {
    Map<String, String> options = lowerCase(source.files().options());
    String sep = options.getOrDefault("sep", options.getOrDefault("delimiter", ","));
    List<String> columns = fields(source).stream().map(StructField::name).toList();
    if (columns.isEmpty()) {
      columns = rows.stream().flatMap(row -> row.keySet().stream()).distinct().toList();
    }
    StringBuilder text = new StringBuilder();
    if (Boolean.parseBoolean(options.getOrDefault("header", "false"))) {
      text.append(columns.stream().map(c -> csvValue(c, sep)).collect(Collectors.joining(sep))).append('\n');
    }
    for (Map<String, Object> row : rows) {
      List<String> values = new ArrayList<>();
      for (String column : columns) {
        Object value = row.entrySet().stream().filter(e -> Identifiers.sameColumn(e.getKey(), column)).map(Map.Entry::getValue)
            .findFirst().orElse(null);
        values.add(value == null ? "" : csvValue(value instanceof BigDecimal d ? d.toPlainString() : value.toString(), sep));
      }
      text.append(String.join(sep, values)).append('\n');
    }
    return text.toString();
  }

  private static String csvValue(String value, String sep) {
    boolean quoted = value.contains(sep) || value.contains("\"") || value.contains("\n") || !value.equals(value.strip());
    return quoted ? "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : value;
  }

  private static void writeWithSpark(SparkSession spark, FileSource source, Path file, List<Map<String, Object>> rows) throws IOException {
    Path parts = Files.createTempDirectory(file.getParent(), ".sluice-test-rows");
    try {
      List<String> lines = jsonLines(rows).lines().toList();
      var read = spark.read().option("mode", "FAILFAST");
      if (!fields(source).isEmpty()) {
        read = read.schema(source.files().schema());
      }
      read.json(spark.createDataset(lines, Encoders.STRING())).coalesce(1).write().mode("overwrite")
          .format(source.files().format()).options(source.files().options()).save(parts.resolve("rows").toString());
      try (Stream<Path> written = Files.list(parts.resolve("rows"))) {
        Path part = written.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst()
            .orElseThrow(() -> new IOException("Spark wrote no file"));
        Files.move(part, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      ScratchPipeline.empty(parts);
      Files.deleteIfExists(parts);
    }
  }

  private static List<StructField> fields(FileSource source) {
    String corrupt = lowerCase(source.files().options()).get(CORRUPT_RECORD);
    return Arrays.stream(source.files().schema().fields())
        .filter(f -> !f.name().equals(corrupt)).toList();
  }

  private static Map<String, String> lowerCase(Map<String, String> options) {
    return options.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().toLowerCase(Locale.ROOT), Map.Entry::getValue, (a, b) -> b));
  }
}
