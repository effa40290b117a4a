package io.sluice.graph;

import java.nio.file.Path;

/** Where a path a definition gives points: a relative one starts at the pipeline folder, as the user reads it. */
public final class PipelinePaths {
  private PipelinePaths() {}

  /** {@code path} as given if it has a scheme ({@code s3a://}) or is absolute, else under {@code pipelineFolder}. */
  public static String resolve(String path, Path pipelineFolder) {
    boolean hasScheme = path.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
    if (hasScheme || Path.of(path).isAbsolute()) {
      return path;
    }
    return pipelineFolder.resolve(path).normalize().toString();
  }
}
