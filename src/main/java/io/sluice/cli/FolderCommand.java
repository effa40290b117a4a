package io.sluice.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** A pipeline command whose only argument is the pipeline folder. */
abstract class FolderCommand extends PipelineCommand {
  @Parameters(arity = "0..1", paramLabel = "DIR", description = "Pipeline folder (default: current folder).")
  Path folder = Path.of(".");

  @Override
  final Path dir() {
    return folder;
  }
}
