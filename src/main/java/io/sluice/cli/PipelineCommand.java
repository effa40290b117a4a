package io.sluice.cli;

import io.sluice.SluiceException;
import io.sluice.session.SparkSessions;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecLoader;
import io.sluice.update.PipelineLock;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/**
 * What the commands that open a pipeline share: the folder argument, {@code --verbose},
 * the lock, the Spark session, and turning errors into one clear line and an exit code.
 */
abstract class PipelineCommand implements Callable<Integer> {
  static final int FAILED = 1;

  @Option(names = "--verbose", description = "Show Spark's warnings and stack traces.")
  boolean verbose;

  @Override
  public final Integer call() {
    if (verbose) {
      Configurator.setRootLevel(Level.WARN);
    }
    try {
      PipelineSpec spec = SpecLoader.load(dir());
      try (PipelineLock lock = PipelineLock.acquire(spec.storage(), spec.name())) {
        SparkSession spark = SparkSessions.open(spec);
        try {
          return run(spec, spark);
        } finally {
          spark.stop();
        }
      }
    } catch (SluiceException e) {
      return fail(e, e.userMessage());
    } catch (Exception e) {
      return fail(e, "error: " + io.sluice.graph.SparkErrors.firstLine(e));
    }
  }

  /** The pipeline folder the command works on. */
  abstract Path dir();

  abstract int run(PipelineSpec spec, SparkSession spark);

  int fail(Throwable e, String message) {
    System.err.println(message);
    if (verbose) {
      e.printStackTrace(System.err);
    }
    return FAILED;
  }
}
