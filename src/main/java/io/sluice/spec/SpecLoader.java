package io.sluice.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sluice.ErrorClass;
import io.sluice.Origin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Finds and reads a pipeline's spec file, refusing unknown and missing fields by name. */
public final class SpecLoader {
  public static final List<String> FILE_NAMES = List.of("spark-pipeline.yml", "spark-pipeline.yaml");
  private static final Set<String> FIELDS =
      Set.of("name", "storage", "catalog", "database", "schema", "configuration", "libraries");

  private static final List<String> GLOB_FIELDS = List.of("include", "exclude");

  private SpecLoader() {}

  /** Reads the spec of the pipeline in {@code dir}. */
  public static PipelineSpec load(Path dir) {
    Path root = dir.toAbsolutePath().normalize();
    return parse(specIn(root).orElseThrow(() -> new SpecException(ErrorClass.SPEC_NOT_FOUND, Origin.UNKNOWN,
        "no spark-pipeline.yml in " + root + "; create one with 'sluice init' or pass the pipeline folder")));
  }

  /**
   * Reads the spec of the pipeline that {@code start} is in: the spec file of {@code start} or of
   * the nearest folder above it that has one, as Spark's {@code spark-pipelines} looks for it
   * when no spec is named.
   */
  public static PipelineSpec find(Path start) {
    Path from = start.toAbsolutePath().normalize();
    for (Path dir = from; dir != null; dir = dir.getParent()) {
      Optional<Path> file = specIn(dir);
      if (file.isPresent()) {
        return parse(file.get());
      }
    }
    throw new SpecException(ErrorClass.SPEC_NOT_FOUND, Origin.UNKNOWN, "no spark-pipeline.yml in " + from
        + " nor in a folder above it; create one with 'sluice init', pass the pipeline folder or name the spec with --spec");
  }

  /**
   * Reads the spec file {@code file}, whatever its name (the {@code --spec} of Spark's
   * {@code spark-pipelines}); its folder is the pipeline folder, which relative paths in it start from.
   */
  public static PipelineSpec loadFile(Path file) {
    Path spec = file.toAbsolutePath().normalize();
    if (Files.isDirectory(spec)) {
      throw new SpecException(ErrorClass.SPEC_NOT_FOUND, Origin.UNKNOWN,
          "--spec names the folder " + spec + ", not a spec file: give the folder as the pipeline folder instead");
    }
    if (!Files.isRegularFile(spec)) {
      throw new SpecException(ErrorClass.SPEC_NOT_FOUND, Origin.UNKNOWN, "no spec file " + spec);
    }
    return parse(spec);
  }

  /** The spec file of {@code dir}, if it has one; two spec files are refused. */
  private static Optional<Path> specIn(Path dir) {
    List<Path> found = FILE_NAMES.stream().map(dir::resolve).filter(Files::isRegularFile).toList();
    if (found.size() > 1) {
      throw new SpecException(ErrorClass.AMBIGUOUS_SPEC, Origin.UNKNOWN,
          dir + " has both spark-pipeline.yml and spark-pipeline.yaml; keep one");
    }
    return found.stream().findFirst();
  }

  static PipelineSpec parse(Path specFile) {
    String file = specFile.getFileName().toString();
    JsonNode doc;
    try {
      doc = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(specFile));
    } catch (JsonProcessingException e) {
      throw syntaxError(file, e);
    } catch (IOException e) {
      throw new SpecException(ErrorClass.SPEC_UNREADABLE, Origin.of(file, 0), "cannot read: " + e.getMessage(), e);
    }
    Origin origin = Origin.of(file, 0);
    if (doc == null || !doc.isObject()) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, "the spec must be a YAML mapping with at least 'name' and 'storage'");
    }
    for (Iterator<String> names = doc.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!FIELDS.contains(field)) {
        throw new SpecException(ErrorClass.SPEC_UNKNOWN_FIELD, origin,
            "unknown field '" + field + "'; the spec knows " + String.join(", ", FIELDS.stream().sorted().toList()));
      }
    }
    if (doc.has("database") && doc.has("schema")) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, "give 'database' or its alias 'schema', not both");
    }
    Path root = specFile.getParent();
    String name = requiredText(doc, "name", origin);
    Storage storage;
    try {
      storage = Storage.parse(requiredText(doc, "storage", origin), root);
    } catch (IllegalArgumentException e) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, "storage is not a folder or a URI: " + e.getMessage());
    }
    Optional<String> database = optionalText(doc, "database", origin).or(() -> optionalText(doc, "schema", origin));
    return new PipelineSpec(root, specFile, name, storage, optionalText(doc, "catalog", origin), database,
        configuration(doc.get("configuration"), origin), libraries(doc.get("libraries"), origin));
  }

  /**
   * SnakeYAML knows where the problem is and what it is; its message adds the offending text
   * and a caret over several lines, which the line and column already say.
   */
  private static SpecException syntaxError(String file, JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
      String context = marked.getContext() == null || marked.getContextMark() == null ? ""
          : " (" + marked.getContext() + " from line " + (marked.getContextMark().getLine() + 1) + ")";
      return new SpecException(ErrorClass.SPEC_SYNTAX_ERROR,
          Origin.of(file, marked.getProblemMark().getLine() + 1, marked.getProblemMark().getColumn() + 1),
          "not valid YAML: " + marked.getProblem() + context, e);
    }
    JsonLocation at = e.getLocation();
    return new SpecException(ErrorClass.SPEC_SYNTAX_ERROR, at == null ? Origin.of(file, 0) : Origin.of(file, at.getLineNr(), at.getColumnNr()),
        "not valid YAML: " + e.getOriginalMessage().lines().findFirst().orElse(""), e);
  }

  private static String requiredText(JsonNode doc, String field, Origin origin) {
    return optionalText(doc, field, origin).orElseThrow(() -> new SpecException(ErrorClass.SPEC_MISSING_FIELD, origin,
        "missing required field '" + field + "'"));
  }

  private static Optional<String> optionalText(JsonNode doc, String field, Origin origin) {
    JsonNode node = doc.get(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isValueNode() || node.asText().isBlank()) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, "field '" + field + "' must be a non-empty string");
    }
    return Optional.of(node.asText());
  }

  private static Map<String, String> configuration(JsonNode node, Origin origin) {
    Map<String, String> conf = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return conf;
    }
    if (!node.isObject()) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, "'configuration' must be a map of setting names to values");
    }
    node.fields().forEachRemaining(entry -> {
      if (!entry.getValue().isValueNode() || entry.getValue().isNull()) {
        throw new SpecException(ErrorClass.SPEC_INVALID, origin, "configuration '" + entry.getKey() + "' must be a plain value");
      }
      conf.put(entry.getKey(), entry.getValue().asText());
    });
    return conf;
  }

  /** {@code - glob: {include: PATTERN, exclude: PATTERN}}; each may also be a list of patterns. */
  private static PipelineSpec.Glob glob(JsonNode glob, Origin origin) {
    String shape = "a glob library is '- glob: {include: PATTERN, exclude: PATTERN}' (exclude optional; either may be a list)";
    if (!glob.isObject()) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, shape);
    }
    for (Iterator<String> names = glob.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!GLOB_FIELDS.contains(field)) {
        throw new SpecException(ErrorClass.SPEC_UNKNOWN_FIELD, origin,
            "unknown field '" + field + "' under glob; it knows " + String.join(", ", GLOB_FIELDS));
      }
    }
    List<String> include = patterns(glob.get("include"), origin, shape);
    if (include.isEmpty()) {
      throw new SpecException(ErrorClass.SPEC_MISSING_FIELD, origin, "missing field 'include' under glob; " + shape);
    }
    return new PipelineSpec.Glob(include, patterns(glob.get("exclude"), origin, shape));
  }

  private static List<String> patterns(JsonNode node, Origin origin, String shape) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    List<String> patterns = new ArrayList<>();
    for (JsonNode pattern : node.isArray() ? node : List.of(node)) {
      if (!pattern.isTextual() || pattern.asText().isBlank()) {
        throw new SpecException(ErrorClass.SPEC_INVALID, origin, shape);
      }
      patterns.add(pattern.asText());
    }
    return patterns;
  }

  private static List<PipelineSpec.Library> libraries(JsonNode node, Origin origin) {
    List<PipelineSpec.Library> libraries = new ArrayList<>();
    if (node == null || node.isNull()) {
      return libraries;
    }
    if (!node.isArray()) {
      throw new SpecException(ErrorClass.SPEC_INVALID, origin, "'libraries' must be a list of '- glob: {include: PATTERN}'");
    }
    for (JsonNode entry : node) {
      if (entry.has("glob") && entry.size() == 1) {
        libraries.add(glob(entry.get("glob"), origin));
      } else if (entry.has("class") && entry.size() == 1 && entry.get("class").isTextual()) {
        libraries.add(new PipelineSpec.JavaClass(entry.get("class").asText()));
      } else {
        throw new SpecException(ErrorClass.SPEC_INVALID, origin,
            "unknown library entry " + entry + "; use '- glob: {include: PATTERN}' or '- class: NAME'");
      }
    }
    return libraries;
  }
}
