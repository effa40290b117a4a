package io.sluice.cli;

import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sluice}: the command line. Each subcommand is its own class; those of the tools jar
 * ({@link ToolCommand}) join when it is on the class path.
 */
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
      EventsCommand.class
    })
public final class SluiceCli implements Runnable {
  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }

  public static void main(String[] args) {
    CommandLine cli = commandLine(SessionSource.OWN);
    ServiceLoader.load(ToolCommand.class).forEach(cli::addSubcommand);
    System.exit(cli.execute(args));
  }

  /** The command line whose pipeline commands take their Spark session from {@code sessions}. */
  static CommandLine commandLine(SessionSource sessions) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    return new CommandLine(new SluiceCli(), new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> type) throws Exception {
        K created = defaults.create(type);
        if (created instanceof PipelineCommand command) {
          command.sessions = sessions;
        }
        return created;
      }
    });
  }
}
