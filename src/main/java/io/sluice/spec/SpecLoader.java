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

  private SpecLoader() {}

  /** Reads the spec of the pipeline in {@code dir}. */
  public static PipelineSpec load(Path dir) {
    Path root = dir.toAbsolutePath().normalize();
    List<Path> found = FILE_NAMES.stream().map(root::resolve).filter(Files::isRegularFile).toList();
    if (found.isEmpty()) {
      throw new SpecException(ErrorClass.SPEC_NOT_FOUND, Origin.UNKNOWN,
          "no spark-pipeline.yml in " + root + "; create one with 'sluice init' or pass the pipeline folder");
    }
    if (found.size() > 1) {
      throw new SpecException(ErrorClass.AMBIGUOUS_SPEC, Origin.UNKNOWN,
          root + " has both spark-pipeline.yml and spark-pipeline.yaml; keep one");
    }
    return parse(found.get(0));
  }

  static PipelineSpec parse(Path specFile) {
    String file = specFile.getFileName().toString();
    JsonNode doc;
    try {
      doc = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(specFile));
    } catch (JsonProcessingException e) {
      throw new SpecException(ErrorClass.SPEC_SYNTAX_ERROR, Origin.of(file, errorLine(e)),
          "not valid YAML: " + e.getOriginalMessage(), e);
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
    Path storage = root.resolve(requiredText(doc, "storage", origin)).normalize();
    Optional<String> database = optionalText(doc, "database", origin).or(() -> optionalText(doc, "schema", origin));
    return new PipelineSpec(root, specFile, name, storage, optionalText(doc, "catalog", origin), database,
        configuration(doc.get("configuration"), origin), libraries(doc.get("libraries"), origin));
  }

  /** SnakeYAML knows where the problem is; Jackson only where it stopped reading. */
  private static int errorLine(JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
      return marked.getProblemMark().getLine() + 1;
    }
    JsonLocation at = e.getLocation();
    return at == null ? 0 : at.getLineNr();
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
        JsonNode glob = entry.get("glob");
        if (!glob.isObject() || glob.size() != 1 || !glob.has("include") || !glob.get("include").isTextual()) {
          throw new SpecException(ErrorClass.SPEC_INVALID, origin, "a glob library is '- glob: {include: PATTERN}'");
        }
        libraries.add(new PipelineSpec.Glob(glob.get("include").asText()));
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
