package io.sluice.storage;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * AWS's SDK bundle, which {@code hadoop-aws} uses for {@code s3a://}, carries a relocated SLF4J
 * 1 with no logger bound to it: the first S3 client it makes prints three lines about that to
 * standard error, lines a user would take for an error. Its logger factory is started here
 * once, with standard error muted, before Sluice makes the first client.
 */
final class AwsSdkLog {
  private static final String FACTORY = "software.amazon.awssdk.thirdparty.org.slf4j.LoggerFactory";
  private static boolean started;

  private AwsSdkLog() {}

  static synchronized void startQuietly() {
    if (started) {
      return;
    }
    started = true;
    PrintStream err = System.err;
    System.setErr(new PrintStream(OutputStream.nullOutputStream()));
    try {
      Class.forName(FACTORY).getMethod("getILoggerFactory").invoke(null);
    } catch (ReflectiveOperationException | LinkageError notThere) {
      // No AWS SDK on the class path: nothing to quiet.
    } finally {
      System.setErr(err);
    }
  }
}
