package io.sluice.update;

import io.sluice.common.Ahead;
import io.sluice.graph.DataflowGraph;
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
 * quickstart's first run. When a pipeline's SQL calls one, the table is built on a thread of its
 * own while the update analyses its definitions and sets up its tables. Embedded Spark only:
 * under spark-submit the tasks run in the executors' JVMs. Looked for in the flows' SQL text
 * alone, so a call elsewhere (an AUTO CDC clause, a snapshot flow's query, {@code ILIKE}, a
 * Java flow) still pays the table in its first task.
 */
final class CaseMappings {
  private static final Pattern CALL = Pattern.compile("(?i)\\b(lower|upper|lcase|ucase|initcap)\\s*\\(");
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private CaseMappings() {}

  static void buildAheadIfCalled(DataflowGraph graph) {
    boolean called = graph.flows().stream().map(FlowDefinition::query)
        .flatMap(query -> query.sqlText().stream()).anyMatch(text -> CALL.matcher(text).find());
    if (called && !SparkSessions.submitted() && STARTED.compareAndSet(false, true)) {
      Ahead.start("case-mappings", () -> CollationSupport.Lower.execBinaryICU(UTF8String.fromString("Sluice")));
    }
  }
}
