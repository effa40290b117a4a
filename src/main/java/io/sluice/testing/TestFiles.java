package io.sluice.testing;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.eventlog.FlowState;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a pipeline's test files ({@code tests/*.yml} and {@code tests/*.yaml}), refusing what it
 * does not know at its line and column, before anything runs.
 */
public final class TestFiles {
  /** The folder of the pipeline that holds its tests. */
  public static final String FOLDER = "tests";

  private static final Set<String> BOOLEANS = Set.of("true", "false");
  private static final Set<String> CHECKS = Set.of("rows", "ordered", "count", "empty", "sql", "state", "error", "unchanged");
  /** The key of {@code expect} that checks expectations rather than a dataset. */
  private static final String EXPECTATIONS = "expectations";

  private final String file;

  private TestFiles(String file) {
    this.file = file;
  }

  /** Every test of the pipeline whose folder is {@code root}, file by file in name order. */
  public static List<PipelineTestCase> load(Path root) {
    Path folder = root.resolve(FOLDER);
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    List<PipelineTestCase> tests = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path path : files.filter(TestFiles::isTestFile).sorted().toList()) {
        tests.addAll(read(path, root.relativize(path).toString()));
      }
    } catch (IOException e) {
      throw new SluiceException(ErrorClass.TEST_FILE_INVALID, Origin.of(folder.toString(), 0), "cannot read " + folder + ": " + e.getMessage());
    }
    return tests;
  }

  private static boolean isTestFile(Path path) {
    String name = path.getFileName().toString();
    return Files.isRegularFile(path) && (name.endsWith(".yml") || name.endsWith(".yaml"));
  }

  /** The tests of one file; {@code name} is how errors name the file. */
  static List<PipelineTestCase> read(Path path, String name) {
    Node root;
    try (Reader reader = Files.newBufferedReader(path)) {
      root = new Yaml(new LoaderOptions()).compose(reader);
    } catch (MarkedYAMLException e) {
      throw new SluiceException(ErrorClass.TEST_FILE_INVALID,
          Origin.of(name, e.getProblemMark().getLine() + 1, e.getProblemMark().getColumn() + 1), "not valid YAML: " + e.getProblem());
    } catch (IOException e) {
      throw new SluiceException(ErrorClass.TEST_FILE_INVALID, Origin.of(name, 0), "cannot read " + path + ": " + e.getMessage());
    }
    TestFiles reader = new TestFiles(name);
    if (root == null) {
      throw reader.error(Origin.of(name, 1), "the file is empty: it should hold 'tests:', a list of tests");
    }
    Map<String, Node> top = reader.mapping(root, "the file", Set.of("tests"));
    Node list = top.get("tests");
    if (list == null) {
      throw reader.error(reader.origin(root), "the file should hold 'tests:', a list of tests");
    }
    List<PipelineTestCase> tests = new ArrayList<>();
    for (Node test : reader.sequence(list, "'tests'")) {
      tests.add(reader.test(test));
    }
    return tests;
  }

  private PipelineTestCase test(Node node) {
    Map<String, Node> fields = mapping(node, "a test", Set.of("name", "updates"));
    String name = text(required(fields, node, "name", "a test"), "a test's name");
    List<TestUpdate> updates = new ArrayList<>();
    for (Node update : sequence(required(fields, node, "updates", "test '" + name + "'"), "'updates'")) {
      updates.add(update(update, updates.size() + 1));
    }
    if (updates.isEmpty()) {
      throw error(origin(node), "test '" + name + "' has no updates");
    }
    return new PipelineTestCase(name, origin(node), updates);
  }

  private TestUpdate update(Node node, int number) {
    Map<String, Node> fields = mapping(node, "an update", Set.of("given", "expect"));
    List<GivenRows> given = new ArrayList<>();
    if (fields.containsKey("given")) {
      for (Map.Entry<Node, Node> source : entries(fields.get("given"), "'given'")) {
        given.add(new GivenRows(text(source.getKey(), "a source's name"), origin(source.getKey()), rows(source.getValue())));
      }
    }
    List<TableExpectation> expectations = new ArrayList<>();
    if (fields.containsKey("expect")) {
      for (Map.Entry<Node, Node> check : entries(fields.get("expect"), "'expect'")) {
        String name = text(check.getKey(), "a dataset's name");
        if (name.equals(EXPECTATIONS)) {
          expectations.addAll(failedRows(check.getValue()));
        } else {
          expectations.add(expectation(name, check.getValue()));
        }
      }
    }
    if (given.isEmpty() && expectations.isEmpty()) {
      throw error(origin(node), "update " + number + " has neither 'given' nor 'expect'");
    }
    return new TestUpdate(number, given, expectations);
  }

  private TableExpectation expectation(String dataset, Node node) {
    Map<String, Node> fields = mapping(node, "the check of '" + dataset + "'", CHECKS);
    Origin at = origin(node);
    List<String> given = fields.keySet().stream().filter(k -> !k.equals("ordered") && !k.equals("error")).toList();
    if (given.size() != 1) {
      throw error(at, "the check of '" + dataset + "' should give one of rows, count, empty, sql, state or unchanged; it gives "
          + (given.isEmpty() ? "none" : String.join(", ", given)));
    }
    if (fields.containsKey("ordered") && !fields.containsKey("rows")) {
      throw error(origin(fields.get("ordered")), "'ordered' goes with 'rows'");
    }
    if (fields.containsKey("error") && !fields.containsKey("state")) {
      throw error(origin(fields.get("error")), "'error' goes with 'state: FAILED'");
    }
    Node value = fields.get(given.get(0));
    return switch (given.get(0)) {
      case "rows" -> new TableExpectation.Rows(dataset, at, rows(value),
          fields.containsKey("ordered") && bool(fields.get("ordered"), "'ordered'"));
      case "count" -> new TableExpectation.Count(dataset, at, count(value, "'count'"));
      case "empty" -> {
        if (!bool(value, "'empty'")) {
          throw error(origin(value), "'empty: false' checks nothing: give 'count' or 'rows'");
        }
        yield new TableExpectation.Count(dataset, at, 0);
      }
      case "state" -> state(dataset, at, value, Optional.ofNullable(fields.get("error")).map(e -> text(e, "'error'")));
      case "unchanged" -> {
        if (!bool(value, "'unchanged'")) {
          throw error(origin(value), "'unchanged: false' checks nothing: give 'count' or 'rows'");
        }
        yield new TableExpectation.Unchanged(dataset, at);
      }
      default -> new TableExpectation.NoRows(dataset, at, text(value, "'sql'"));
    };
  }

  private TableExpectation state(String flow, Origin at, Node value, Optional<String> error) {
    String text = text(value, "'state'");
    FlowState state = Arrays.stream(FlowState.values()).filter(s -> s.isFinal() && s.name().equalsIgnoreCase(text)).findFirst()
        .orElseThrow(() -> error(origin(value), "'state' should be one of " + Arrays.stream(FlowState.values())
            .filter(FlowState::isFinal).map(FlowState::name).collect(Collectors.joining(", "))));
    if (error.isPresent() && state != FlowState.FAILED) {
      throw error(at, "'error' goes with 'state: FAILED'");
    }
    return new TableExpectation.State(flow, at, state, error);
  }

  /** {@code expectations: {name: {failed: N}}}: the rows that failed each expectation in the update. */
  private List<TableExpectation> failedRows(Node node) {
    List<TableExpectation> checks = new ArrayList<>();
    for (Map.Entry<Node, Node> entry : entries(node, "'expectations'")) {
      String name = text(entry.getKey(), "an expectation's name");
      Map<String, Node> fields = mapping(entry.getValue(), "the check of expectation '" + name + "'", Set.of("failed"));
      checks.add(new TableExpectation.FailedRows(name, origin(entry.getValue()),
          count(required(fields, entry.getValue(), "failed", "the check of expectation '" + name + "'"), "'failed'")));
    }
    return checks;
  }

  private List<Map<String, Object>> rows(Node node) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Node row : sequence(node, "rows")) {
      Map<String, Object> fields = new LinkedHashMap<>();
      for (Map.Entry<Node, Node> field : entries(row, "a row")) {
        if (!(field.getValue() instanceof ScalarNode scalar)) {
          throw error(origin(field.getValue()), "the value of '" + text(field.getKey(), "a column") + "' should be a plain value");
        }
        fields.put(text(field.getKey(), "a column's name"), value(scalar));
      }
      rows.add(fields);
    }
    return rows;
  }

  /**
   * A scalar as YAML types it: null, a boolean, a whole or decimal number, or else its text. Only
   * true and false are booleans: YAML 1.1's yes, no, on and off stay the words a user wrote.
   */
  private static Object value(ScalarNode scalar) {
    Tag tag = scalar.getTag();
    String text = scalar.getValue();
    try {
      if (tag.equals(Tag.NULL)) {
        return null;
      } else if (tag.equals(Tag.BOOL) && BOOLEANS.contains(text.toLowerCase(Locale.ROOT))) {
        return Boolean.parseBoolean(text);
      } else if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT)) {
        return new BigDecimal(text.replace("_", ""));
      }
    } catch (NumberFormatException notPlainDecimal) {
      return text; // e.g. 0x1F or .inf: kept as written
    }
    return text;
  }

  private long count(Node node, String what) {
    if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.INT)) {
      try {
        long n = Long.parseLong(scalar.getValue());
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error(origin(node), what + " should be a whole number, 0 or more");
  }

  private boolean bool(Node node, String what) {
    if (node instanceof ScalarNode scalar && BOOLEANS.contains(scalar.getValue().toLowerCase(Locale.ROOT))) {
      return Boolean.parseBoolean(scalar.getValue());
    }
    throw error(origin(node), what + " should be true or false");
  }

  private Map<String, Node> mapping(Node node, String what, Set<String> known) {
    Map<String, Node> fields = new LinkedHashMap<>();
    for (Map.Entry<Node, Node> entry : entries(node, what)) {
      String key = text(entry.getKey(), "a field's name");
      if (!known.contains(key)) {
        throw error(origin(entry.getKey()), "unknown field '" + key + "' in " + what + "; it takes "
            + String.join(", ", known.stream().sorted().toList()));
      }
      fields.put(key, entry.getValue());
    }
    return fields;
  }

  private List<Map.Entry<Node, Node>> entries(Node node, String what) {
    if (!(node instanceof MappingNode mapping)) {
      throw error(origin(node), what + " should be a mapping of names to values");
    }
    List<Map.Entry<Node, Node>> entries = new ArrayList<>();
    for (NodeTuple tuple : mapping.getValue()) {
      entries.add(Map.entry(tuple.getKeyNode(), tuple.getValueNode()));
    }
    return entries;
  }

  private List<Node> sequence(Node node, String what) {
    if (!(node instanceof SequenceNode sequence)) {
      throw error(origin(node), what + " should be a list");
    }
    return sequence.getValue();
  }

  private Node required(Map<String, Node> fields, Node node, String field, String what) {
    Node value = fields.get(field);
    if (value == null) {
      throw error(origin(node), what + " lacks '" + field + "'");
    }
    return value;
  }

  private String text(Node node, String what) {
    if (node instanceof ScalarNode scalar && !scalar.getTag().equals(Tag.NULL) && !scalar.getValue().isBlank()) {
      return scalar.getValue();
    }
    throw error(origin(node), what + " should be a text");
  }

  private Origin origin(Node node) {
    return Origin.of(file, node.getStartMark().getLine() + 1, node.getStartMark().getColumn() + 1);
  }

  private SluiceException error(Origin at, String message) {
    return new SluiceException(ErrorClass.TEST_FILE_INVALID, at, message);
  }
}
