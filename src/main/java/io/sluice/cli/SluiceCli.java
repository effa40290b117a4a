package io.sluice.cli;

import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code sluice}: the command line. Each subcommand is its own class; those of the tools jar
 * ({@link ToolCommand}) join when it is on the class path.
 *
 * <p>Exit codes: 0 success, 1 a command that failed (its one line on stderr), 2 a usage
 * error (an unknown option, a missing argument, no command at all), reported as one line
 * and a pointer to {@code --help}.
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
      EventsCommand.class,
      HistoryCommand.class,
      MaintainCommand.class,
      GraphCommand.class,
      ReportCommand.class,
      TestCommand.class
    })
public final class SluiceCli implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a command: "
        + String.join(", ", spec.subcommands().keySet()));
  }

  public static void main(String[] args) {
    System.exit(commandLine(SessionSource.OWN).execute(args));
  }

  /** The command line whose pipeline commands take their Spark session from {@code sessions}. */
  static CommandLine commandLine(SessionSource sessions) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine cli = new CommandLine(new SluiceCli(), new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> type) throws Exception {
        K created = defaults.create(type);
        if (created instanceof PipelineCommand command) {
          command.sessions = sessions;
        }
        return created;
      }
    });
    ServiceLoader.load(ToolCommand.class).forEach(cli::addSubcommand);
    withHelp(cli);
    cli.setParameterExceptionHandler(SluiceCli::usageError);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    return cli;
  }

  /**
   * How the user starts Sluice, for hints that must work as printed: {@code bin/sluice} sets it
   * to {@code sluice} when that is on the PATH, else to its own absolute path.
   */
  static String launcher() {
    return shellWord(System.getProperty("sluice.launcher", "sluice"));
  }

  /** A word a POSIX shell reads back as it is: quoted when it holds anything but safe characters. */
  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./@%+=:,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * {@code -h}/{@code --help} and {@code -V}/{@code --version} on every command and subcommand,
   * answered before any argument is checked.
   */
  private static void withHelp(CommandLine command) {
    command.getCommandSpec().mixinStandardHelpOptions(true);
    command.getSubcommands().values().forEach(sub -> {
      sub.getCommandSpec().version(command.getCommandSpec().version());
      withHelp(sub);
    });
  }

  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    command.getErr().println("error: " + e.getMessage() + " (see '" + command.getCommandSpec().qualifiedName() + " --help')");
    command.getErr().flush();
    return CommandLine.ExitCode.USAGE;
  }
}
