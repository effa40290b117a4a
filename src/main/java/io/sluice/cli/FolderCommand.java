package io.sluice.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** A pipeline command whose only argument is the pipeline folder. */
abstract class FolderCommand extends PipelineCommand {
  @Parameters(arity = "0..1", paramLabel = "DIR",
      description = "Pipeline folder (default: the current folder, or the nearest folder above it with a spec).")
  Path folder;

  @Override
  final Path dir() {
    return folder;
  }
}
