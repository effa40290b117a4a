package io.sluice.execution;

import io.sluice.common.Ahead;
import io.sluice.graph.FlowDefinition;
import io.sluice.session.SparkSessions;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.util.CollationSupport;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark's ICU case mappings (what {@code lower}, {@code upper} and {@code initcap} use under the
 * default collation) build a table of every Unicode code point the first time a JVM calls one:
 * about 1.4 s of one core, inside the first task that does, and the longest step of the
 * quickstart's first run. When a flow that has work to do calls one in its SQL, the table is
 * built on a thread of its own while the flow starts its query and plans its first batch; a flow
 * with nothing new never pays it (in an idle update it was a third of the process's Java time).
 * Embedded Spark only: under spark-submit the tasks run in the executors' JVMs. Looked for in
 * the flow's SQL text alone, so a call elsewhere (an AUTO CDC clause, a snapshot flow's query,
 * {@code ILIKE}, a Java flow) still pays the table in its first task.
 */
final class CaseMappings {
  private static final Pattern CALL = Pattern.compile("(?i)\\b(lower|upper|lcase|ucase|initcap)\\s*\\(");
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private CaseMappings() {}

  static void buildAheadIfCalled(FlowDefinition flow) {
    boolean called = flow.query().sqlText().filter(text -> CALL.matcher(text).find()).isPresent();
    if (called && !SparkSessions.submitted() && STARTED.compareAndSet(false, true)) {
      Ahead.start("case-mappings", () -> CollationSupport.Lower.execBinaryICU(UTF8String.fromString("Sluice")));
    }
  }
}
