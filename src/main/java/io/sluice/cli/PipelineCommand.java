package io.sluice.cli;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.eventlog.EventLog;
import io.sluice.session.ServiceCheck;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecLoader;
import io.sluice.storage.StorageCheck;
import io.sluice.update.PipelineLock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What the commands that open a pipeline share: the folder argument or {@code --spec}, {@code --verbose},
 * the lock, the Spark session, and turning errors into one clear line and an exit code.
 */
abstract class PipelineCommand implements Callable<Integer> {
  static final int FAILED = 1;

  @Option(names = "--verbose", description = "Show Spark's warnings and stack traces.")
  boolean verbose;

  @Option(names = "--spec", paramLabel = "FILE",
      description = "The pipeline's spec file, of any name, instead of its folder (as spark-pipelines takes it).")
  Path specFile;

  @Spec CommandSpec command;

  SessionSource sessions = SessionSource.OWN;

  /** Whether the command runs beside an update that holds the pipeline ({@link #runWhileUpdating}). */
  private boolean besideUpdate;

  @Override
  public final Integer call() {
    if (verbose) {
      Configurator.setRootLevel(Level.WARN);
    }
    Path dir = dir();
    if (dir != null && specFile != null) {
      throw new ParameterException(command.commandLine(), "give the pipeline folder or --spec, not both");
    }
    try {
      PipelineSpec spec = specFile != null ? SpecLoader.loadFile(specFile)
          : dir != null ? SpecLoader.load(dir) : SpecLoader.find(Path.of(""));
      if (dir == null && specFile == null && !spec.root().equals(Path.of("").toAbsolutePath().normalize())) {
        // Found in a folder above: say which pipeline the command acts on, as it may not be the one meant.
        err().println("(pipeline '" + spec.name() + "' of " + spec.specFile() + ")");
      }
      ServiceCheck.verify(spec);
      OptionalInt refused = checkWithoutSpark(spec);
      if (refused.isPresent()) {
        return refused.getAsInt();
      }
      if (!usesStorage()) {
        SparkSession spark = sessions.open(sessionSpec(spec));
        try {
          return run(spec, spark);
        } finally {
          sessions.release(spark);
        }
      }
      StorageCheck.verify(spec);
      PipelineLock lock;
      try {
        lock = PipelineLock.acquire(spec.storage().localFolder(), spec.name(), command.qualifiedName());
      } catch (SluiceException busy) {
        if (!readsWhileUpdating() || !ErrorClass.UPDATE_ALREADY_RUNNING.name().equals(busy.errorClass())) {
          throw busy;
        }
        SparkSession spark = sessions.openReader(spec);
        besideUpdate = true;
        try {
          return runWhileUpdating(spec, spark, PipelineLock.holder(spec.storage().localFolder()));
        } finally {
          sessions.release(spark);
        }
      }
      try (lock) {
        SparkSession spark = sessions.open(spec);
        try {
          return run(spec, spark);
        } finally {
          sessions.release(spark);
        }
      }
    } catch (SluiceException e) {
      return fail(e, e.userMessage(hint(e)));
    } catch (Exception e) {
      return fail(e, "error: " + io.sluice.common.SparkErrors.firstLine(e));
    }
  }

  /** The next step for an error a newcomer meets, on the error's line. */
  private String hint(SluiceException e) {
    if ("TABLE_OR_VIEW_NOT_FOUND".equals(e.errorClass()) && e.getMessage().contains("`wanderbricks`.")) {
      return "; the examples' sample tables come first: " + SluiceCli.launcher() + " samples" + pipelineArguments();
    }
    return "";
  }

  /** How this command named its pipeline, for a hint to name it the same way: "", " DIR" or " --spec FILE". */
  private String pipelineArguments() {
    Path dir = dir();
    if (specFile != null) {
      return " --spec " + SluiceCli.shellWord(specFile.toString());
    }
    return dir == null ? "" : " " + SluiceCli.shellWord(dir.toString());
  }

  /**
   * The pipeline folder the command names; null when it names none, and the pipeline is then the
   * one the current folder is in ({@link SpecLoader#find}).
   */
  abstract Path dir();

  abstract int run(PipelineSpec spec, SparkSession spark);

  /**
   * Whether the command works in the pipeline's storage (its lock, its catalog); one that does
   * not takes no lock and runs in a session opened on {@link #sessionSpec}, beside anything else.
   */
  boolean usesStorage() {
    return true;
  }

  /**
   * What the command checks before a Spark session starts (seconds saved on a mistake it finds):
   * the exit code to end with at once, or empty to go on.
   */
  OptionalInt checkWithoutSpark(PipelineSpec spec) {
    return OptionalInt.empty();
  }

  /** The spec whose storage the session of a command that does not {@link #usesStorage} lives in. */
  PipelineSpec sessionSpec(PipelineSpec spec) {
    return spec;
  }

  /** Whether the command reads, and may do so while another process holds the pipeline (an update). */
  boolean readsWhileUpdating() {
    return false;
  }

  /**
   * The command while {@code holder} (e.g. "sluice run (pid 12, since 10:02:11)") holds the
   * pipeline, in a session of its own ({@link SessionSource#openReader}); only for commands
   * that {@link #readsWhileUpdating}. By default: the pipeline's tables registered by their
   * locations ({@link ReaderCatalog}), a line that says so, then {@link #run}.
   */
  int runWhileUpdating(PipelineSpec spec, SparkSession spark, String holder) {
    ReaderCatalog.register(spark, spec);
    err().println("(reading while " + holder + " updates the pipeline: each table as of its latest commit)");
    return run(spec, spark);
  }

  /**
   * The pipeline's event log, with the events a running update has spooled when the command
   * runs beside it (read, never moved: the spool is the update's); empty before any update.
   */
  Optional<Dataset<Row>> eventLog(SparkSession spark, PipelineSpec spec) {
    return besideUpdate ? EventLog.readWhileRunning(spark, spec.storage()) : EventLog.read(spark, spec.storage());
  }

  int fail(Throwable e, String message) {
    err().println(message);
    if (verbose) {
      e.printStackTrace(err());
    }
    err().flush();
    return FAILED;
  }

  /** Where the command's results go: standard output, or what the caller of the command line set. */
  PrintWriter out() {
    return command.commandLine().getOut();
  }

  PrintWriter err() {
    return command.commandLine().getErr();
  }
}
