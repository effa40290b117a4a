package io.sluice.delta;

import org.apache.spark.sql.SparkSession;

/**
 * The session for a commit that creates an empty Delta table: a copy of the caller's with
 * Delta's file list in checksums off. Delta derives the list of files it keeps in a version's
 * checksum from the previous version's; a new table has none, so by default Delta lists the
 * empty table in a Spark job (about 0.1 s for each table an update creates). A commit that leaves
 * no file records an empty list even with the option off, without the job, and later commits
 * derive theirs from it as usual. A commit that adds files must not run here: its checksum would
 * have no list, and the next commit would rebuild it from the log in a job.
 */
public final class NewTableSession {
  private static final String FILE_LIST_IN_CHECKSUM = "spark.databricks.delta.allFilesInCrc.enabled";

  private NewTableSession() {}

  /** A clone of {@code spark} (its settings and catalog), so that commits on other threads keep the option. */
  public static SparkSession of(SparkSession spark) {
    SparkSession session = ((org.apache.spark.sql.classic.SparkSession) spark).cloneSession();
    session.conf().set(FILE_LIST_IN_CHECKSUM, "false");
    return session;
  }
}
