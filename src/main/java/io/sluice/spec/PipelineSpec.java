package io.sluice.spec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pipeline's spec file ({@code spark-pipeline.yml}), in the format of Apache Spark
 * Declarative Pipelines (SEMANTICS §1.1).
 *
 * @param root the folder that holds the spec file
 * @param storage where checkpoints, AUTO CDC state and the event log live (embedded, the catalog too)
 * @param configuration Spark settings applied to the session
 */
public record PipelineSpec(
    Path root,
    Path specFile,
    String name,
    Storage storage,
    Optional<String> catalog,
    Optional<String> database,
    Map<String, String> configuration,
    List<Library> libraries) {

  /** The catalog and the database a spec that names none uses. */
  public static final String DEFAULT_CATALOG = "spark_catalog";
  public static final String DEFAULT_DATABASE = "default";

  public PipelineSpec {
    configuration = Map.copyOf(configuration);
    libraries = List.copyOf(libraries);
  }

  /** One entry of {@code libraries}. */
  public sealed interface Library permits Glob, JavaClass {}

  /**
   * {@code - glob: {include: PATTERN, exclude: PATTERN}}: SQL files, and jars whose classes the
   * {@code class} entries name; the files any include pattern matches and no exclude pattern does.
   */
  public record Glob(List<String> include, List<String> exclude) implements Library {
    public Glob {
      include = List.copyOf(include);
      exclude = List.copyOf(exclude);
    }
  }

  /** {@code - class: com.example.Definitions}: a {@code PipelineDefinition} from the classpath or a jar. */
  public record JavaClass(String className) implements Library {}
}
