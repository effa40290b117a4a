package io.sluice.testing;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.SluiceException;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.ExternalSource;
import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import io.sluice.graph.SinkDestination;
import io.sluice.kafka.TestTopics;
import io.sluice.spec.PipelineSpec;
import io.sluice.update.PipelineUpdate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A pipeline as its tests see it, resolved once (a dry run on a copy of its folder): the file
 * sources a test may give rows to, and the datasets, flows and expectations it may check. Each
 * check of a test against it fails with the test's origin and what the pipeline has instead.
 */
final class TestablePipeline {
  /** The database of the copy the pipeline is resolved in: a dataset there is in a test's own database in its copy. */
  static final String DATABASE = "default";
  private static final String TABLE = "table ";
  private static final String TOPIC = "kafka topic ";

  private final SparkSession spark;
  /** The folder the pipeline was resolved in: a path in it is the same path in a test's copy. */
  private final Path root;
  private final PipelineSpec spec;
  private final ResolvedGraph graph;
  /** Every source the pipeline reads from outside, by label, for the messages. */
  private final Set<String> read;
  private final List<FileSource> files;

  private TestablePipeline(SparkSession spark, Path root, PipelineSpec spec, ResolvedGraph graph, Set<String> read, List<FileSource> files) {
    this.spark = spark;
    this.root = root;
    this.spec = spec;
    this.graph = graph;
    this.read = read;
    this.files = files;
  }

  /** Resolves {@code spec}'s pipeline in {@code spark}, on a copy of its folder made in {@code scratch}. */
  static TestablePipeline resolve(SparkSession spark, PipelineSpec spec, Path scratch) {
    Path root = scratch.toAbsolutePath().normalize();
    PipelineSpec copy = ScratchPipeline.copy(spec, root, DATABASE, Set.of());
    ResolvedGraph graph = ScratchPipeline.withTopics(spark, root, () -> PipelineUpdate.validate(spark, copy));
    TestablePipeline pipeline = of(spark, spec, graph, root);
    ScratchPipeline.empty(root);
    return pipeline;
  }

  /** {@code spec}'s pipeline as {@code graph} resolved it in the folder {@code root}, in {@code spark}. */
  static TestablePipeline of(SparkSession spark, PipelineSpec spec, ResolvedGraph graph, Path root) {
    Set<String> read = new LinkedHashSet<>();
    Map<String, FileSource> files = new LinkedHashMap<>();
    for (ResolvedFlow flow : graph.flows()) {
      for (ExternalSource source : flow.externalSources()) {
        Optional<ExternalSource.Files> reader = source.files();
        Path location = reader.map(f -> Path.of(f.location()).normalize()).orElse(null);
        if (location == null || !location.startsWith(root) || location.equals(root)) {
          read.add(source.label());
          continue;
        }
        Path relative = root.relativize(location);
        if (location.startsWith(Path.of(ScratchPipeline.topics(root)))) {
          read.add(TOPIC + location.getFileName()); // in a test, read_kafka reads the topic's table
          continue;
        }
        boolean oneFile = Files.isRegularFile(location);
        String name = FileSource.name(reader.get().format(), relative);
        read.add(name);
        files.putIfAbsent(name, new FileSource(name, oneFile ? parent(relative) : relative,
            oneFile ? Optional.of(relative.getFileName().toString()) : Optional.empty(), reader.get()));
      }
    }
    return new TestablePipeline(spark, root, spec, graph, read, List.copyOf(files.values()));
  }

  /**
   * Checks {@code tests} against the pipeline: rows only for sources it reads, with fields they
   * have; checks only of what it defines.
   *
   * @throws SluiceException at the test file's line and column
   */
  void validate(List<PipelineTestCase> tests) {
    for (PipelineTestCase test : tests) {
      for (TestUpdate update : test.updates()) {
        update.given().forEach(given -> target(given, update.number()));
        update.expectations().forEach(this::validate);
      }
    }
  }

  private static Path parent(Path relative) {
    return relative.getParent() == null ? Path.of("") : relative.getParent();
  }

  PipelineSpec spec() {
    return spec;
  }

  /** The folders, relative to the pipeline's, whose files a test's copy leaves out: its sources start empty. */
  Set<Path> sourceFolders() {
    return files.stream().map(FileSource::folder).collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /** The tables outside the pipeline that it reads and that were made for tests: each test starts them empty. */
  List<String> tablesMadeForTests() {
    return read.stream().filter(label -> label.startsWith(TABLE)).map(label -> label.substring(TABLE.length()))
        .filter(table -> SourceTables.madeByTests(spark, table)).toList();
  }

  /** Where the rows {@code given} in {@code update} go: a file of a source, or a table outside the pipeline. */
  GivenTarget target(GivenRows given, int update) {
    String name = FileSource.normalise(given.source());
    for (FileSource source : files) {
      Optional<Path> file = source.fileFor(name, update);
      if (file.isPresent()) {
        SourceFiles.checkFields(source, given);
        return new GivenTarget.File(source, file.get());
      }
    }
    if (name.startsWith(TOPIC) && read.contains(name)) {
      Set<String> fields = new LinkedHashSet<>();
      given.rows().forEach(row -> fields.addAll(row.keySet()));
      for (String field : fields) {
        if (!List.of(GivenTarget.Topic.FIELDS.fieldNames()).contains(field)) {
          throw new SluiceException(ErrorClass.TEST_FIELD_UNKNOWN, given.origin(), "a record of '" + given.source() + "' has a field '"
              + field + "'; a Kafka record takes " + String.join(", ", GivenTarget.Topic.FIELDS.fieldNames()));
        }
      }
      return new GivenTarget.Topic(name.substring(TOPIC.length()));
    }
    if (SourceTables.namesTable(given.source())) {
      String table = SourceTables.tableName(given.source());
      if (SourceTables.label(spark, table).filter(read::contains).isPresent()) {
        return new GivenTarget.Table(table);
      }
    }
    String message = !read.contains(name) && read.stream().noneMatch(r -> FileSource.normalise(r).equals(name))
        ? "the pipeline reads no source '" + given.source() + "'; it reads " + (read.isEmpty() ? "nothing from outside" : String.join(", ", read))
        : name.contains(" files ") ? "rows cannot be given to '" + given.source() + "': its files are outside the pipeline's folder,"
            + " and a test writes only into its own copy of that folder"
        : "rows can be given to files, tables and Kafka topics that the pipeline reads, not to '" + given.source() + "'";
    throw new SluiceException(ErrorClass.TEST_SOURCE_UNKNOWN, given.origin(), message);
  }

  /** Refuses a check of something the pipeline does not have, at the check's origin. */
  void validate(TableExpectation check) {
    if (check instanceof TableExpectation.FailedRows rows) {
      expectation(rows.dataset(), rows.origin());
    } else if (check instanceof TableExpectation.State state) {
      flows(state.dataset(), state.origin());
    } else if (check instanceof TableExpectation.Unchanged unchanged) {
      table(unchanged.dataset(), unchanged.origin());
    } else if (!(check instanceof TableExpectation.NoRows)) {
      DatasetName dataset = dataset(check.dataset(), check.origin());
      graph.dataset(dataset).sink().filter(sink -> !readable(sink)).ifPresent(sink -> {
        throw new SluiceException(ErrorClass.TEST_DATASET_UNKNOWN, check.origin(), "a check reads a sink that writes to Kafka (with a"
            + " topic option) or to Delta; '" + check.dataset() + "' writes to " + sink.label());
      });
    }
  }

  private static boolean readable(SinkDestination sink) {
    return sink instanceof SinkDestination.DataSource source && (source.isKafka() ? source.option("topic").isPresent()
        : source.format().equals(SinkDestination.DataSource.DELTA));
  }

  /** The dataset a check names, in the pipeline's default database (a test's copy has its own). */
  DatasetName dataset(String name, Origin origin) {
    DatasetName qualified = graph.graph().qualify(List.of(name.split("\\.")));
    if (!graph.graph().datasets().containsKey(qualified)) {
      throw unknown(origin, "dataset '" + name + "'", graph.graph().datasets().keySet().stream().map(DatasetName::name));
    }
    return qualified;
  }

  /** The table a check of versions names: a dataset of the pipeline that is no view. */
  DatasetName table(String name, Origin origin) {
    DatasetName table = dataset(name, origin);
    if (!tables().contains(table)) {
      throw new SluiceException(ErrorClass.TEST_DATASET_UNKNOWN, origin, "'" + name + "' is a view: it has no versions to compare;"
          + " its tables are " + tables().stream().map(DatasetName::name).sorted().collect(Collectors.joining(", ")));
    }
    return table;
  }

  /** The flows a check of {@code name}'s state means: the flow of that name, or every flow into the dataset of that name. */
  Set<String> flows(String name, Origin origin) {
    Set<String> flows = new LinkedHashSet<>();
    DatasetName qualified = graph.graph().qualify(List.of(name.split("\\.")));
    for (ResolvedFlow flow : graph.flows()) {
      if (flow.name().equals(qualified) || flow.target().equals(qualified)) {
        flows.add(flow.name().name());
      }
    }
    if (flows.isEmpty()) {
      throw unknown(origin, "flow or dataset '" + name + "'", graph.flows().stream().map(f -> f.name().name()));
    }
    return flows;
  }

  /** Checks that an expectation of {@code name} ({@code dataset.name} when two datasets share it) exists. */
  void expectation(String name, Origin origin) {
    List<String> names = new ArrayList<>();
    boolean found = false;
    for (DatasetDefinition dataset : graph.graph().datasets().values()) {
      for (var expectation : dataset.expectations()) {
        names.add(dataset.name().name() + "." + expectation.name());
        found |= TableExpectation.FailedRows.names(name, dataset.name().name(), expectation.name());
      }
    }
    if (!found) {
      throw unknown(origin, "expectation '" + name + "'", names.stream());
    }
  }

  /**
   * Where a check of the sink {@code name} reads the rows its flows sent, in the test whose copy
   * is in {@code copy}: a Kafka sink's topic (its table in the test), a Delta sink's table or path.
   * Empty for a dataset that is no sink.
   */
  Optional<Dataset<Row>> sinkRows(DatasetName name, Path copy) {
    Optional<SinkDestination> sink = graph.dataset(name).sink();
    if (sink.isEmpty()) {
      return Optional.empty();
    }
    SinkDestination.DataSource source = (SinkDestination.DataSource) sink.get();
    if (source.isKafka()) {
      String location = TestTopics.location(ScratchPipeline.topics(copy), source.option("topic").orElseThrow());
      return Optional.of(spark.read().format("delta").load(location)
          .selectExpr("CAST(key AS STRING) AS key", "CAST(value AS STRING) AS value", "topic", "partition", "offset", "timestamp"));
    }
    Optional<String> path = source.option(SinkDestination.DataSource.PATH);
    if (path.isPresent()) {
      Path location = Path.of(path.get());
      return Optional.of(spark.read().format("delta").load(location.startsWith(root) ? copy.resolve(root.relativize(location)).toString() : path.get()));
    }
    return Optional.of(spark.table(source.option(SinkDestination.DataSource.TABLE_NAME).orElseThrow()));
  }

  /** The pipeline's tables (not its views nor sinks), in the pipeline's default database. */
  Set<DatasetName> tables() {
    return graph.graph().datasets().values().stream().filter(d -> !d.type().isView() && d.sink().isEmpty())
        .map(DatasetDefinition::name).collect(Collectors.toCollection(LinkedHashSet::new));
  }

  private static SluiceException unknown(Origin origin, String what, java.util.stream.Stream<String> known) {
    String list = known.sorted().collect(Collectors.joining(", "));
    return new SluiceException(ErrorClass.TEST_DATASET_UNKNOWN, origin, "the pipeline defines no " + what + "; it defines "
        + (list.isEmpty() ? "none" : list));
  }
}
