package io.sluice.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** The optional pipeline folder argument of the commands that take nothing else. */
final class PipelineDir {
  @Parameters(arity = "0..1", paramLabel = "DIR", description = "Pipeline folder (default: current folder).")
  Path dir = Path.of(".");
}
