package io.sluice.execution;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.common.SparkErrors;
import io.sluice.delta.NewTableSession;
import io.sluice.graph.DatasetName;
import io.sluice.storage.StoragePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.SparkSession;

/**
 * Creates the managed Delta tables of a pipeline, surviving a creation cut short. Delta creates
 * a managed table in two steps no transaction joins: the table's first commit in its folder, then
 * the catalog's entry. A process killed between them, or while Delta writes that commit, leaves a
 * folder the catalog does not know, and Delta refuses to create a managed table in a folder that
 * is not empty, on every later update. When all the folder holds is a transaction log of at most
 * that first commit, with no data file, it holds no row: Sluice removes it and creates the table
 * again. Anything more is refused with the folder's name, for the user to look at.
 *
 * <p>Creates run in {@link NewTableSession a session that spares a new table a Spark job}.
 */
public final class TableCreation {
  private static final String NON_EMPTY_LOCATION = "DELTA_CREATE_TABLE_WITH_NON_EMPTY_LOCATION";
  private static final String LOG = "_delta_log";
  /** A log file of a version: commits, checksums, checkpoints, coordinated commits ({@code 00000000000000000001.json}). */
  private static final Pattern VERSION_FILE = Pattern.compile("^(\\d{20})\\..*");

  private TableCreation() {}

  /**
   * Runs {@code statement}, a {@code CREATE TABLE} of the managed table {@code name} that the
   * catalog does not hold, after removing what an interrupted creation of it left.
   */
  public static void create(SparkSession spark, DatasetName name, Origin origin, String statement) {
    SparkSession creator = NewTableSession.of(spark);
    try {
      creator.sql(statement);
    } catch (Exception e) { // Spark's Scala code throws its checked AnalysisException undeclared
      SparkThrowable refused = nonEmptyLocation(e).orElseThrow(() -> SparkErrors.unchecked(e));
      StoragePath folder = StoragePath.at(spark, refused.getMessageParameters().get("tableLocation"));
      if (!leftOfInterruptedCreation(folder)) {
        throw new SluiceException(ErrorClass.TABLE_FOLDER_NOT_EMPTY, origin, "table '" + name.name()
            + "' is not in the catalog, but its folder " + folder + " holds files (a table dropped from the catalog"
            + " outside Sluice?): move the folder away or delete it, then run again");
      }
      folder.delete();
      creator.sql(statement);
    }
  }

  private static Optional<SparkThrowable> nonEmptyLocation(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SparkThrowable refused && NON_EMPTY_LOCATION.equals(refused.getCondition())) {
        return Optional.of(refused);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code folder} holds nothing but a transaction log whose last version is at most 0. */
  private static boolean leftOfInterruptedCreation(StoragePath folder) {
    for (StoragePath entry : folder.list()) {
      if (!entry.name().equals(LOG)) {
        return false;
      }
    }
    for (StoragePath file : files(folder.resolve(LOG))) {
      Matcher version = VERSION_FILE.matcher(file.name());
      if (version.matches() && Long.parseLong(version.group(1)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static List<StoragePath> files(StoragePath folder) {
    List<StoragePath> files = new ArrayList<>();
    for (StoragePath entry : folder.list()) {
      if (entry.isDirectory()) {
        files.addAll(files(entry));
      } else {
        files.add(entry);
      }
    }
    return files;
  }
}
