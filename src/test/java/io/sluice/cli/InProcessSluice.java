package io.sluice.cli;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.SharedSpark;
import io.sluice.testsupport.SluiceCommands;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code sluice} commands run in the test's JVM, on its shared Spark session: the command
 * line, the lock, the update and what is printed are those of a process, without its 10-20 s
 * of start-up. A pipeline run this way needs a database of its own (see
 * {@code PipelineFolder#inItsOwnDatabase}), since every pipeline of the JVM shares its catalog.
 */
public final class InProcessSluice extends SluiceCommands {
  /** The commands in this JVM. */
  public static final InProcessSluice IN_PROCESS = new InProcessSluice();

  private InProcessSluice() {}

  /** Runs {@code sluice COMMAND dir REST...}: the folder is given as the command's argument, not as a working directory. */
  @Override
  public CommandResult run(Path dir, String... args) {
    List<String> command = new ArrayList<>(Arrays.asList(args));
    command.add(Math.min(1, command.size()), dir.toString());
    return execute(command.toArray(String[]::new));
  }

  /** Runs {@code sluice ARGS} exactly as given, in the JVM's working folder. */
  public CommandResult execute(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    picocli.CommandLine cli = SluiceCli.commandLine(SessionSource.lending(SharedSpark.session()));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    long started = System.nanoTime();
    int exit = cli.execute(args);
    return new CommandResult(Arrays.asList(args), exit, out.toString(), err.toString(),
        Duration.ofNanos(System.nanoTime() - started));
  }
}
