package io.sluice.cli;

import static io.sluice.cli.InProcessSluice.IN_PROCESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import io.sluice.testsupport.TestPipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice graph} and {@code sluice report} on a pipeline with a file source, a
 * streaming table with an expectation, a named append flow and a materialized view, after one
 * update; and the graph of keyed flows before any run. The report as a browser shows it is
 * checked in {@code ReportBrowserE2E}.
 */
class GraphAndReportTest {
  @TempDir static Path dir;

  static final List<String> DATASETS = List.of("changes", "customers", "by_country");

  @BeforeAll
  static void runOnce() {
    new TestPipeline(dir)
        .write("landing/a.json", """
            {"id": 1, "name": "a", "country": "FR"}
            {"id": 2, "name": "b", "country": "IT"}
            {"id": null, "name": "c", "country": "IT"}
            """)
        .write("transformations/t.sql", """
            CREATE STREAMING TABLE changes (CONSTRAINT has_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW)
              AS SELECT * FROM STREAM read_files('landing', format => 'json', schema => 'id INT, name STRING, country STRING');
            CREATE STREAMING TABLE customers;
            CREATE FLOW customers_in AS INSERT INTO customers BY NAME SELECT id, name, country FROM STREAM(changes);
            CREATE MATERIALIZED VIEW by_country AS SELECT country, count(*) AS n FROM customers GROUP BY country;
            """);
    IN_PROCESS.ok(dir, "run");
  }

  @Test
  void dotHasEveryDatasetTheSourceAndTheFlowKinds() {
    String dot = IN_PROCESS.ok(dir, "graph", "--format", "dot").stdout();
    assertTrue(dot.startsWith("digraph \"test\" {\n  rankdir=LR;"), dot);
    for (String dataset : DATASETS) {
      assertTrue(Pattern.compile("\\[label=\"" + dataset + "\\\\n").matcher(dot).find(), () -> dataset + " is a node:\n" + dot);
    }
    assertTrue(dot.contains("[label=\"json files landing\\nsource\""), dot);
    assertTrue(dot.contains("[label=\"customers\\nstreaming table\\nCOMPLETED · 2 rows · "), () -> "the latest update's figures:\n" + dot);
    assertTrue(dot.contains("[label=\"changes\\nstreaming table\\nCOMPLETED · 2 rows · "), dot);
    assertTrue(dot.matches("(?s).*\\[label=\"by_country\\\\nmaterialized view\\\\nCOMPLETED [^\"]*\\\\nnext refresh: NO_OP\".*"),
        () -> "the view's next refresh, its inputs unchanged since:\n" + dot);
    assertEquals(List.of("source -> changes", "changes -> customers [customers_in: append]", "customers -> by_country"),
        edges(dot), dot);
  }

  @Test
  void aPipelineThatHasNotRunIsDrawnWithItsFlowKinds(@TempDir Path other) {
    new TestPipeline(other)
        .write("landing/a.json", "{\"id\": 1, \"v\": \"a\", \"seq\": 1}\n")
        .write("transformations/t.sql", """
            CREATE STREAMING TABLE events AS SELECT * FROM STREAM read_files('landing', format => 'json',
              schema => 'id INT, v STRING, seq INT', rescuedDataColumn => '');
            CREATE STREAMING TABLE history;
            CREATE FLOW history_cdc AS AUTO CDC INTO history FROM STREAM(events) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;
            CREATE STREAMING TABLE latest FLOW REPLACE USING (id) SEQUENCE BY seq BY NAME SELECT * FROM STREAM(events);
            CREATE MATERIALIZED VIEW versions AS SELECT id, count(*) AS n FROM latest GROUP BY id;
            """);
    String dot = IN_PROCESS.ok(other, "graph", "--format", "dot").stdout();
    assertEquals(List.of("source -> events", "events -> history [history_cdc: AUTO CDC SCD 2]", "events -> latest [REPLACE USING]",
        "latest -> versions"), edges(dot), dot);
    assertTrue(dot.contains("[label=\"versions\\nmaterialized view\\nnext refresh: COMPLETE_RECOMPUTE\""), dot);
    assertTrue(dot.contains("[label=\"history\\nstreaming table\"") && !dot.contains("COMPLETED"), () -> "no figures before a run:\n" + dot);
    assertTrue(!java.nio.file.Files.exists(other.resolve(".sluice/checkpoints")), "graph runs nothing");
  }

  @Test
  void mermaidAndSvgDrawTheSameGraph() {
    String mermaid = IN_PROCESS.ok(dir, "graph", "--format", "MERMAID").stdout();
    assertTrue(mermaid.startsWith("flowchart LR\n"), mermaid);
    assertTrue(mermaid.contains("[(\"json files landing<br/>source\")]"), mermaid);
    assertTrue(mermaid.contains(" -->|\"customers_in: append\"| "), mermaid);
    assertTrue(mermaid.contains("(\"by_country<br/>materialized view<br/>COMPLETED · 2 rows · "), mermaid);

    CommandResult written = IN_PROCESS.ok(dir, "graph", "--out", dir.resolve("out/g.svg").toString());
    assertTrue(written.stdout().startsWith("wrote " + dir.resolve("out/g.svg")), written::toString);
    String svg = read(dir.resolve("out/g.svg"));
    assertTrue(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg);
    for (String dataset : DATASETS) {
      assertTrue(svg.contains("<g class=\"node\" data-name=\"" + dataset + "\""), () -> dataset + " is drawn:\n" + svg);
    }
    assertEquals(3, count(svg, "<g class=\"edge\""), svg);
  }

  @Test
  void theReportHasTheGraphTheUpdateTheFlowsAndTheExpectations() {
    CommandResult report = IN_PROCESS.ok(dir, "report");
    Path file = dir.resolve(".sluice/report.html");
    assertTrue(report.stdout().startsWith("wrote " + file), report::toString);
    String html = read(file);
    assertTrue(!html.contains("http://") || html.indexOf("http://") == html.indexOf("http://www.w3.org/2000/svg"),
        "nothing fetched from the network");
    assertEquals(3, count(html, "<g class=\"node\" data-name=\"") - 1, "three datasets and one source");
    assertTrue(html.contains("<tr data-dataset=\"customers\"><td>customers_in</td><td>customers</td><td class=\"state-COMPLETED\">COMPLETED</td><td class=\"n\">1</td><td class=\"n\">2</td>"), html);
    assertTrue(html.contains("<td>has_id</td><td class=\"n\">2</td><td class=\"n state-FAILED\">1</td>"), html);
    assertTrue(html.contains("<td>refresh: COMPLETE_RECOMPUTE, "), () -> "how the view's refresh went:\n" + html);
    assertTrue(html.contains("<table class=\"updates\">") && html.contains("class=\"state-COMPLETED\">COMPLETED</td>"), html);
  }

  @Test
  void aFailedUpdateShowsWhyInTheReport(@TempDir Path other) {
    new TestPipeline(other)
        .write("landing/a.json", "{\"id\": 1}\n{\"id\": -1}\n")
        .write("transformations/t.sql", """
            CREATE STREAMING TABLE ids (CONSTRAINT positive EXPECT (id > 0) ON VIOLATION FAIL UPDATE)
              AS SELECT id FROM STREAM read_files('landing', format => 'json', schema => 'id INT');
            """);
    assertEquals(1, IN_PROCESS.run(other, "run").exit());
    IN_PROCESS.ok(other, "report", "--out", other.resolve("r.html").toString());
    String html = read(other.resolve("r.html"));
    assertTrue(html.contains("<td class=\"state-FAILED\">FAILED</td>"), html);
    Matcher error = Pattern.compile("<tr data-dataset=\"ids\"><td></td><td colspan=\"7\" class=\"error\">([^<]*)</td>").matcher(html);
    assertTrue(error.find(), () -> "the flow's error under its row:\n" + html);
    assertTrue(error.group(1).contains("positive") && error.group(1).contains("EXPECTATION"), error.group(1));
  }

  private static List<String> edges(String dot) {
    Matcher edge = Pattern.compile("  (n\\d+) -> (n\\d+)(?: \\[label=\"([^\"]*)\"\\])?;").matcher(dot);
    List<String> found = new java.util.ArrayList<>();
    while (edge.find()) {
      found.add(name(dot, edge.group(1)) + " -> " + name(dot, edge.group(2)) + (edge.group(3) == null ? "" : " [" + edge.group(3) + "]"));
    }
    return found;
  }

  /** A node's first label line, or "source" for a source. */
  private static String name(String dot, String id) {
    Matcher node = Pattern.compile("  " + id + " \\[label=\"([^\\\\\"]*)\\\\n([^\\\\\"]*)").matcher(dot);
    assertTrue(node.find(), id);
    return node.group(2).equals("source") ? "source" : node.group(1);
  }

  private static int count(String text, String part) {
    return text.split(Pattern.quote(part), -1).length - 1;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
