package io.sluice.sql;

import static org.apache.spark.sql.functions.expr;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.expectations.Expectation;
import io.sluice.expectations.ViolationAction;
import io.sluice.graph.AutoCdcBuilder;
import io.sluice.graph.ColumnSelection;
import io.sluice.graph.DatasetDefinition;
import io.sluice.graph.DatasetName;
import io.sluice.graph.DatasetType;
import io.sluice.graph.FlowDefinition;
import io.sluice.graph.FlowMode;
import io.sluice.graph.GraphException;
import io.sluice.graph.GraphRegistry;
import io.sluice.graph.RefreshPolicy;
import io.sluice.graph.SinkDestination;
import io.sluice.sql.SluiceSqlParser.AutoCdcClauseContext;
import io.sluice.sql.SluiceSqlParser.AutoCdcContext;
import io.sluice.sql.SluiceSqlParser.CdcSourceContext;
import io.sluice.sql.SluiceSqlParser.ColumnSelectionContext;
import io.sluice.sql.SluiceSqlParser.ColumnsClauseContext;
import io.sluice.sql.SluiceSqlParser.CreateDatasetContext;
import io.sluice.sql.SluiceSqlParser.CreateFlowContext;
import io.sluice.sql.SluiceSqlParser.CreateSinkContext;
import io.sluice.sql.SluiceSqlParser.CreateViewContext;
import io.sluice.sql.SluiceSqlParser.DatasetClauseContext;
import io.sluice.sql.SluiceSqlParser.RefreshPolicyContext;
import io.sluice.sql.SluiceSqlParser.DeleteClauseContext;
import io.sluice.sql.SluiceSqlParser.ExpectationContext;
import io.sluice.sql.SluiceSqlParser.IdentifierContext;
import io.sluice.sql.SluiceSqlParser.IgnoreNullUpdatesClauseContext;
import io.sluice.sql.SluiceSqlParser.InsertIntoContext;
import io.sluice.sql.SluiceSqlParser.KeysClauseContext;
import io.sluice.sql.SluiceSqlParser.MultipartIdentifierContext;
import io.sluice.sql.SluiceSqlParser.PropertyContext;
import io.sluice.sql.SluiceSqlParser.QueryTextContext;
import io.sluice.sql.SluiceSqlParser.ReplaceUsingContext;
import io.sluice.sql.SluiceSqlParser.ScdTypeClauseContext;
import io.sluice.sql.SluiceSqlParser.SequenceClauseContext;
import io.sluice.sql.SluiceSqlParser.SetConfigurationContext;
import io.sluice.sql.SluiceSqlParser.TableElementContext;
import io.sluice.sql.SluiceSqlParser.TrackHistoryClauseContext;
import io.sluice.sql.SluiceSqlParser.TruncateClauseContext;
import io.sluice.sql.SluiceSqlParser.UseNamespaceContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;
import org.apache.spark.sql.catalyst.util.SparkParserUtils$;

/**
 * Reads one SQL file of pipeline statements and registers its datasets and flows. {@code SET}
 * and {@code USE} apply to the definitions that follow them in the same file.
 */
public final class SqlDefinitionParser {
  private final String file;
  private final CharStream input;
  private final GraphRegistry registry;
  private final Path baseDir;
  private final Map<String, String> sqlConf = new LinkedHashMap<>();
  private String catalog;
  private String database;

  private SqlDefinitionParser(String file, String text, GraphRegistry registry, Path baseDir) {
    this.file = file;
    this.input = CharStreams.fromString(text, file);
    this.registry = registry;
    this.baseDir = baseDir;
    this.catalog = registry.defaultCatalog();
    this.database = registry.defaultDatabase();
  }

  /**
   * Parses {@code text} and registers what it defines.
   *
   * @param file the name errors cite, relative to the pipeline folder
   * @param baseDir the pipeline folder, against which relative {@code read_files} paths resolve
   */
  public static void parse(String file, String text, GraphRegistry registry, Path baseDir) {
    new SqlDefinitionParser(file, text, registry, baseDir).run();
  }

  private void run() {
    SluiceSqlLexer lexer = new SluiceSqlLexer(input);
    SluiceSqlParser parser = new SluiceSqlParser(new CommonTokenStream(lexer));
    SyntaxErrorListener errors = new SyntaxErrorListener(file);
    lexer.removeErrorListeners();
    lexer.addErrorListener(errors);
    parser.removeErrorListeners();
    parser.addErrorListener(errors);
    for (SluiceSqlParser.StatementContext statement : parser.script().statement()) {
      if (statement.createDataset() != null) {
        createDataset(statement.createDataset());
      } else if (statement.createView() != null) {
        createView(statement.createView());
      } else if (statement.createSink() != null) {
        createSink(statement.createSink());
      } else if (statement.createFlow() != null) {
        createFlow(statement.createFlow());
      } else if (statement.setConfiguration() != null) {
        set(statement.setConfiguration());
      } else {
        use(statement.useNamespace());
      }
    }
  }

  private void createDataset(CreateDatasetContext ctx) {
    DatasetType type = ctx.datasetKind().STREAMING() != null ? DatasetType.STREAMING_TABLE : DatasetType.MATERIALIZED_VIEW;
    DatasetName name = name(ctx.name);
    DatasetDefinition.Builder dataset = DatasetDefinition.builder(name, type, origin(ctx));
    List<String> columns = new ArrayList<>();
    for (TableElementContext element : ctx.tableElement()) {
      if (element.expectation() != null) {
        dataset.expectation(expectation(element.expectation()));
      } else {
        columns.add(text(element.columnText()));
      }
    }
    if (!columns.isEmpty()) {
      dataset.schema(String.join(", ", columns));
    }
    List<String> seenClauses = new ArrayList<>();
    for (DatasetClauseContext clause : ctx.datasetClause()) {
      String keyword = clause.getStart().getText().toUpperCase();
      if (seenClauses.contains(keyword)) {
        throw new GraphException(ErrorClass.DUPLICATE_CLAUSE, origin(clause), keyword + " is given twice for '" + name + "'");
      }
      seenClauses.add(keyword);
      if (clause.refreshPolicy() != null && type != DatasetType.MATERIALIZED_VIEW) {
        throw new GraphException(ErrorClass.REFRESH_POLICY_TARGET, origin(clause),
            "REFRESH POLICY is a clause of a materialized view; '" + name + "' is a " + type);
      }
      datasetClause(clause, dataset);
    }
    FlowMode mode = FlowMode.APPEND;
    if (ctx.replaceUsing() != null) {
      if (type != DatasetType.STREAMING_TABLE) {
        throw new GraphException(ErrorClass.REPLACE_USING_TARGET, origin(ctx),
            "FLOW REPLACE USING needs a streaming table; '" + name + "' is a " + type);
      }
      mode = replaceUsing(ctx.replaceUsing(), name);
    }
    registry.register(dataset.build());
    if (ctx.queryText() != null) {
      registry.register(new FlowDefinition(name, name, query(ctx.queryText()), mode, sqlConf, true, origin(ctx)));
    }
  }

  private FlowMode.ReplaceUsing replaceUsing(ReplaceUsingContext ctx, DatasetName flow) {
    if (ctx.identifierList() == null) {
      throw new GraphException(ErrorClass.REPLACE_USING_WITHOUT_KEYS, origin(ctx),
          "REPLACE USING of flow '" + flow + "' names no key column: REPLACE USING (key, ...)");
    }
    if (ctx.sequenceText() == null) {
      throw new GraphException(ErrorClass.REPLACE_USING_WITHOUT_SEQUENCE, origin(ctx),
          "REPLACE USING of flow '" + flow + "' needs SEQUENCE BY column after its keys");
    }
    return new FlowMode.ReplaceUsing(identifiers(ctx.identifierList().identifier()), expr(text(ctx.sequenceText())));
  }

  private void datasetClause(DatasetClauseContext clause, DatasetDefinition.Builder dataset) {
    if (clause.COMMENT() != null) {
      dataset.comment(unquote(clause.comment));
    } else if (clause.PARTITIONED() != null) {
      dataset.partitionBy(identifiers(clause.identifierList().identifier()));
    } else if (clause.CLUSTER() != null) {
      dataset.clusterBy(identifiers(clause.identifierList().identifier()));
    } else if (clause.refreshPolicy() != null) {
      dataset.refreshPolicy(refreshPolicy(clause.refreshPolicy()));
    } else {
      for (PropertyContext property : clause.property()) {
        dataset.property(propertyKey(property), propertyValue(property));
      }
    }
  }

  private static RefreshPolicy refreshPolicy(RefreshPolicyContext policy) {
    if (policy.FULL() != null) {
      return RefreshPolicy.FULL;
    }
    if (policy.INCREMENTAL() != null) {
      return policy.STRICT() != null ? RefreshPolicy.INCREMENTAL_STRICT : RefreshPolicy.INCREMENTAL;
    }
    return RefreshPolicy.AUTO;
  }

  private static String propertyKey(PropertyContext property) {
    return property.key.STRING() != null ? unquote(property.key.STRING().getSymbol()) : property.key.getText();
  }

  private static String propertyValue(PropertyContext property) {
    return property.value.STRING() != null ? unquote(property.value.STRING().getSymbol()) : property.value.getText();
  }

  private Expectation expectation(ExpectationContext ctx) {
    ViolationAction action = ViolationAction.WARN;
    if (ctx.violationAction() != null) {
      action = ctx.violationAction().DROP() != null ? ViolationAction.DROP : ViolationAction.FAIL;
    }
    return new Expectation(identifier(ctx.name), text(ctx.expressionText()), action, origin(ctx));
  }

  private void createView(CreateViewContext ctx) {
    DatasetType type = ctx.TEMPORARY() != null ? DatasetType.TEMPORARY_VIEW : DatasetType.PERSISTED_VIEW;
    DatasetName name = name(ctx.name);
    DatasetDefinition.Builder view = DatasetDefinition.builder(name, type, origin(ctx));
    if (ctx.comment != null) {
      view.comment(unquote(ctx.comment));
    }
    registry.register(view.build());
    registry.register(new FlowDefinition(name, name, query(ctx.queryText()), FlowMode.APPEND, sqlConf, true, origin(ctx)));
  }

  private void createSink(CreateSinkContext ctx) {
    DatasetName name = name(ctx.name);
    if (!ctx.tableElement().isEmpty()) {
      throw new GraphException(ErrorClass.SINK_DEFINITION, origin(ctx.tableElement(0)), "sink '" + name
          + "' takes no columns or expectations: a sink writes its flows' rows as they are; put expectations on the"
          + " table the flow reads");
    }
    String format = ctx.format.STRING() != null ? unquote(ctx.format.STRING().getSymbol()) : ctx.format.getText();
    Map<String, String> options = new LinkedHashMap<>();
    for (PropertyContext property : ctx.property()) {
      options.put(propertyKey(property), propertyValue(property));
    }
    DatasetDefinition.Builder sink = DatasetDefinition.builder(name, DatasetType.SINK, origin(ctx))
        .sink(SinkDestination.DataSource.of(format, options, baseDir));
    if (ctx.comment != null) {
      sink.comment(unquote(ctx.comment));
    }
    registry.register(sink.build());
  }

  private void createFlow(CreateFlowContext ctx) {
    DatasetName name = name(ctx.name);
    if (ctx.autoCdc() != null) {
      autoCdc(name, ctx.autoCdc(), origin(ctx));
    } else {
      insertInto(name, ctx.insertInto(), origin(ctx));
    }
  }

  private void insertInto(DatasetName name, InsertIntoContext ctx, Origin origin) {
    if (ctx.byName() == null) {
      throw new GraphException(ErrorClass.BY_NAME_REQUIRED, origin,
          "flow '" + name + "' must match columns by name: INSERT INTO " + ctx.target.getText() + " BY NAME ...");
    }
    FlowMode mode = FlowMode.APPEND;
    if (ctx.replaceUsing() != null) {
      mode = replaceUsing(ctx.replaceUsing(), name);
    } else if (ctx.replaceWhere() != null) {
      mode = new FlowMode.ReplaceWhere(text(ctx.replaceWhere().predicateText()));
    }
    registry.register(new FlowDefinition(
        name, name(ctx.target), query(ctx.queryText()), mode, sqlConf, false, origin));
  }

  private void autoCdc(DatasetName name, AutoCdcContext ctx, Origin origin) {
    AutoCdcBuilder cdc = new AutoCdcBuilder().once(ctx.ONCE() != null);
    Set<String> seenClauses = new HashSet<>();
    for (AutoCdcClauseContext clause : ctx.autoCdcClause()) {
      String keyword = clauseName(clause);
      if (!seenClauses.add(keyword)) {
        throw new GraphException(ErrorClass.DUPLICATE_CLAUSE, origin(clause), keyword + " is given twice for flow '" + name + "'");
      }
      autoCdcClause(clause, cdc, name);
    }
    CdcSourceContext source = ctx.cdcSource();
    if (source.SNAPSHOT() != null) {
      autoCdcFromSnapshot(name, ctx, cdc, origin);
      return;
    }
    String table = text(source.source);
    String from = source.STREAM() != null ? "STREAM(" + table + ")" : table;
    SqlFlowQuery query = new SqlFlowQuery("SELECT * FROM " + from, origin(source), catalog, database, baseDir);
    registry.register(new FlowDefinition(name, name(ctx.target), query, cdc.build(name, origin), sqlConf, false, origin));
  }

  /** {@code FROM SNAPSHOT table}, {@code FROM SNAPSHOT (query)} or {@code FROM SNAPSHOT (query) WITH VERSION (query)}. */
  private void autoCdcFromSnapshot(DatasetName name, AutoCdcContext ctx, AutoCdcBuilder cdc, Origin origin) {
    CdcSourceContext source = ctx.cdcSource();
    SqlFlowQuery snapshot = source.snapshotTable != null
        ? new SqlFlowQuery("SELECT * FROM " + text(source.snapshotTable), origin(source), catalog, database, baseDir)
        : new SqlFlowQuery(text(source.snapshotQuery), textOrigin(source.snapshotQuery), catalog, database, baseDir);
    if (source.versionQuery == null) {
      FlowMode mode = cdc.buildFromSnapshot(name, origin, Optional.empty());
      registry.register(new FlowDefinition(name, name(ctx.target), snapshot, mode, sqlConf, false, origin));
      return;
    }
    SqlFlowQuery version = new SqlFlowQuery(
        text(source.versionQuery), textOrigin(source.versionQuery), catalog, database, baseDir);
    SqlSnapshotSource versions = new SqlSnapshotSource(snapshot, version);
    FlowMode mode = cdc.buildFromSnapshot(name, origin, Optional.of(versions));
    registry.register(new FlowDefinition(name, name(ctx.target), versions::snapshotColumns, mode, sqlConf, false, origin));
  }

  private void autoCdcClause(AutoCdcClauseContext clause, AutoCdcBuilder cdc, DatasetName flow) {
    if (clause instanceof KeysClauseContext keys) {
      cdc.keys(keys.identifierList() == null ? List.of() : identifiers(keys.identifierList().identifier()));
    } else if (clause instanceof IgnoreNullUpdatesClauseContext ignore) {
      cdc.ignoreNullUpdates(ignore.columnSelection() == null ? ColumnSelection.ALL : columns(ignore.columnSelection()));
    } else if (clause instanceof DeleteClauseContext delete) {
      cdc.applyAsDeleteWhen(text(delete.clauseText()));
    } else if (clause instanceof TruncateClauseContext truncate) {
      cdc.applyAsTruncateWhen(text(truncate.clauseText()));
    } else if (clause instanceof SequenceClauseContext sequence) {
      cdc.sequenceBy(expr(text(sequence.clauseText())));
    } else if (clause instanceof ColumnsClauseContext columns) {
      cdc.columns(columns(columns.columnSelection()));
    } else if (clause instanceof TrackHistoryClauseContext track) {
      cdc.trackHistory(columns(track.columnSelection()));
    } else {
      String type = ((ScdTypeClauseContext) clause).scdType.getText();
      if (!type.equals("1") && !type.equals("2")) {
        throw new GraphException(ErrorClass.AUTO_CDC_INVALID_SCD_TYPE, origin(clause),
            "AUTO CDC flow '" + flow + "': STORED AS SCD TYPE takes 1 or 2, not " + type);
      }
      cdc.storedAsScdType(Integer.parseInt(type));
    }
  }

  /** The clause's leading keywords, as errors name it (and as one clause is told from another). */
  private static String clauseName(AutoCdcClauseContext clause) {
    // One keyword, then the clause's content: the name must not include the content.
    if (clause instanceof KeysClauseContext || clause instanceof ColumnsClauseContext) {
      return clause.getChild(0).getText().toUpperCase(Locale.ROOT);
    }
    if (clause instanceof IgnoreNullUpdatesClauseContext) {
      return "IGNORE NULL UPDATES";
    }
    if (clause instanceof DeleteClauseContext || clause instanceof TruncateClauseContext) {
      return "APPLY AS " + clause.getChild(2).getText().toUpperCase(Locale.ROOT) + " WHEN";
    }
    return clause.getChild(0).getText().toUpperCase(Locale.ROOT) + " " + clause.getChild(1).getText().toUpperCase(Locale.ROOT);
  }

  private static ColumnSelection columns(ColumnSelectionContext ctx) {
    if (ctx.identifierList() == null) {
      return ColumnSelection.ALL;
    }
    List<String> names = identifiers(ctx.identifierList().identifier());
    return ctx.EXCEPT() != null ? ColumnSelection.except(names) : ColumnSelection.only(names);
  }

  private void set(SetConfigurationContext ctx) {
    String assignment = ctx.rawText() == null ? "" : text(ctx.rawText());
    int equals = assignment.indexOf('=');
    if (equals <= 0) {
      throw new GraphException(ErrorClass.INVALID_SET, origin(ctx), "SET needs a key and a value: SET key = value");
    }
    sqlConf.put(assignment.substring(0, equals).trim(), assignment.substring(equals + 1).trim());
  }

  private void use(UseNamespaceContext ctx) {
    List<String> parts = identifiers(ctx.multipartIdentifier().identifier());
    if (ctx.CATALOG() != null) {
      if (parts.size() != 1) {
        throw new GraphException(ErrorClass.INVALID_USE, origin(ctx), "USE CATALOG takes one name");
      }
      catalog = parts.get(0);
    } else if (parts.size() == 1) {
      database = parts.get(0);
    } else if (parts.size() == 2) {
      catalog = parts.get(0);
      database = parts.get(1);
    } else {
      throw new GraphException(ErrorClass.INVALID_USE, origin(ctx), "USE SCHEMA takes a schema or catalog.schema");
    }
  }

  private SqlFlowQuery query(QueryTextContext ctx) {
    return new SqlFlowQuery(text(ctx), textOrigin(ctx), catalog, database, baseDir);
  }

  private DatasetName name(MultipartIdentifierContext ctx) {
    List<String> parts = identifiers(ctx.identifier());
    if (parts.size() > 3) {
      throw new GraphException(ErrorClass.INVALID_NAME, origin(ctx), "a name has at most three parts: " + ctx.getText());
    }
    return DatasetName.of(parts, catalog, database);
  }

  private static List<String> identifiers(List<IdentifierContext> identifiers) {
    return identifiers.stream().map(SqlDefinitionParser::identifier).toList();
  }

  private static String identifier(IdentifierContext ctx) {
    String text = ctx.getText();
    if (ctx.BACKQUOTED_IDENTIFIER() != null) {
      return text.substring(1, text.length() - 1).replace("``", "`");
    }
    return text;
  }

  private static String unquote(Token string) {
    return SparkParserUtils$.MODULE$.unescapeSQLString(string.getText(), false);
  }

  /** The exact source text of a rule, comments included, as Spark's parser should see it. */
  private String text(ParserRuleContext ctx) {
    return input.getText(Interval.of(ctx.getStart().getStartIndex(), ctx.getStop().getStopIndex()));
  }

  private Origin origin(ParserRuleContext ctx) {
    return Origin.of(file, ctx.getStart().getLine());
  }

  /** Where a text given to Spark's parser starts, column included: Spark's positions in it are relative to it. */
  private Origin textOrigin(ParserRuleContext ctx) {
    return Origin.of(file, ctx.getStart().getLine(), ctx.getStart().getCharPositionInLine() + 1);
  }
}
