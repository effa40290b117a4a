package io.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sluice}: the command line. Each subcommand is its own class. */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    version = "sluice 0.1.0",
    description = "Declarative data pipelines on Apache Spark and Delta Lake.",
    subcommands = {
      InitCommand.class,
      RunCommand.class,
      DryRunCommand.class,
      QueryCommand.class,
      EventsCommand.class,
      SamplesCommand.class,
      BenchCommand.class
    })
public final class SluiceCli implements Runnable {
  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }

  public static void main(String[] args) {
    int code = new CommandLine(new SluiceCli()).execute(args);
    System.exit(code);
  }
}
