package io.sluice.execution;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SpecialFrameBoundary;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OneRowRelation;
import org.apache.spark.sql.catalyst.plans.logical.Range;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.runtime.BoxedUnit;

/**
 * What a query reads, as a digest of its analyzed plan, its settings and the Delta
 * version of every table it scans: two equal fingerprints give the same rows, so a periodic
 * snapshot, or a materialized view, whose fingerprint did not change need not read its
 * sources again.
 *
 * <p>Only a query over Delta tables and constants, whose expressions are deterministic, do not
 * read the clock and hold no subquery, has one; any other query is read on every update.
 */
public final class SourceFingerprint {
  private SourceFingerprint() {}

  public static Optional<String> of(Dataset<Row> query, Map<String, String> sqlConf) {
    LogicalPlan plan = query.queryExecution().analyzed();
    List<String> tables = new ArrayList<>();
    boolean[] repeatable = {true};
    plan.foreach(node -> {
      if (node.children().isEmpty()) {
        if (node instanceof LogicalRelation relation && relation.relation() instanceof HadoopFsRelation files
            && files.location() instanceof TahoeLogFileIndex delta) {
          tables.add(delta.path() + "@" + delta.snapshotAtAnalysis().version());
        } else if (!(node instanceof LocalRelation || node instanceof OneRowRelation || node instanceof Range)) {
          repeatable[0] = false;
        }
      }
      node.expressions().foreach(e -> {
        if (variesBetweenReads(e)) {
          repeatable[0] = false;
        }
        return BoxedUnit.UNIT;
      });
      return BoxedUnit.UNIT;
    });
    if (!repeatable[0]) {
      return Optional.empty();
    }
    return Optional.of(sha256(shape(plan) + "\n" + tables + "\n" + new TreeMap<>(sqlConf)));
  }

  /** The plan's operators, expressions and values, without the expression ids that differ from one analysis to the next. */
  public static String shape(LogicalPlan plan) {
    return plan.treeString(false, false, Integer.MAX_VALUE, false, false).replaceAll("#\\d+L?", "");
  }

  private static boolean variesBetweenReads(Expression expression) {
    return expression.exists(SourceFingerprint::variesItself);
  }

  /** Whether {@code e} may give another value on another read of the same rows: random, a subquery, the clock. */
  public static boolean variesItself(Expression e) {
    return !e.deterministic() || e instanceof SubqueryExpression || readsClockOrSession(e);
  }

  /** current_timestamp(), now(), current_date(), localtimestamp(), current_user() and the like. */
  private static boolean readsClockOrSession(Expression e) {
    if (e instanceof SpecialFrameBoundary) {
      return false; // a window frame's CURRENT ROW
    }
    String name = e.getClass().getSimpleName();
    return name.startsWith("Current") || name.equals("Now") || name.equals("LocalTimestamp");
  }

  public static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
