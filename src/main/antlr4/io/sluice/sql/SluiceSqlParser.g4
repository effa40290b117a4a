/*
 * Sluice's pipeline statements. Queries, expressions and column definitions are cut out
 * as raw text (the rules ending in "Text") and parsed by Spark; this grammar only knows
 * the shape of the statements around them, as Delta Lake's own SQL extension does.
 */
parser grammar SluiceSqlParser;

options { tokenVocab = SluiceSqlLexer; }

script
    : SEMI* (statement (SEMI+ statement)*)? SEMI* EOF
    ;

statement
    : createDataset
    | createView
    | createSink
    | createFlow
    | setConfiguration
    | useNamespace
    ;

createDataset
    : CREATE (OR REFRESH)? datasetKind name=multipartIdentifier
      (LPAREN tableElement (COMMA tableElement)* RPAREN)?
      datasetClause*
      (AS queryText | FLOW replaceUsing byName queryText)?
    ;

// Keys may be missing and SEQUENCE BY left out: the parser then names what is missing.
replaceUsing
    : REPLACE USING LPAREN identifierList? RPAREN (SEQUENCE BY sequenceText)?
    ;

replaceWhere
    : REPLACE WHERE predicateText
    ;

byName
    : BY NAME
    ;

datasetKind
    : STREAMING TABLE
    | MATERIALIZED VIEW
    ;

tableElement
    : expectation
    | columnText
    ;

expectation
    : CONSTRAINT name=identifier EXPECT LPAREN expressionText RPAREN
      (ON VIOLATION violationAction)?
    ;

violationAction
    : DROP ROW
    | FAIL UPDATE
    ;

datasetClause
    : COMMENT comment=STRING
    | PARTITIONED BY LPAREN identifierList RPAREN
    | CLUSTER BY LPAREN identifierList RPAREN
    | TBLPROPERTIES LPAREN property (COMMA property)* RPAREN
    | REFRESH POLICY refreshPolicy
    ;

refreshPolicy
    : AUTO
    | INCREMENTAL STRICT?
    | FULL
    ;

property
    : key=propertyKey EQ? value=propertyValue
    ;

propertyValue
    : STRING
    | IDENTIFIER (DOT IDENTIFIER)?
    ;

propertyKey
    : STRING
    | identifier (DOT identifier)*
    ;

createView
    : CREATE (OR REPLACE)? TEMPORARY? VIEW name=multipartIdentifier
      (COMMENT comment=STRING)?
      AS queryText
    ;

// Ours: Databricks has no SQL form of a sink. Columns and expectations parse, so that the
// error can say they belong elsewhere.
createSink
    : CREATE (OR REPLACE)? SINK name=multipartIdentifier
      (LPAREN tableElement (COMMA tableElement)* RPAREN)?
      USING format=sinkFormat
      (OPTIONS LPAREN property (COMMA property)* RPAREN)?
      (COMMENT comment=STRING)?
    ;

sinkFormat
    : STRING
    | identifier (DOT identifier)*
    ;

createFlow
    : CREATE FLOW name=multipartIdentifier (COMMENT comment=STRING)? AS (insertInto | autoCdc)
    ;

insertInto
    : INSERT INTO target=multipartIdentifier byName? (replaceUsing | replaceWhere)? queryText
    ;

// The clauses may come in any order; the parser refuses one given twice and names what is missing.
autoCdc
    : AUTO CDC ONCE? INTO target=multipartIdentifier FROM cdcSource autoCdcClause*
    ;

// A snapshot query and its version query are cut out whole, from their parentheses.
cdcSource
    : SNAPSHOT LPAREN snapshotQuery=expressionText RPAREN (WITH VERSION LPAREN versionQuery=expressionText RPAREN)?
    | SNAPSHOT snapshotTable=multipartIdentifier
    | STREAM LPAREN source=multipartIdentifier RPAREN
    | STREAM source=multipartIdentifier
    | source=multipartIdentifier
    ;

autoCdcClause
    : KEYS LPAREN identifierList? RPAREN                        #keysClause
    | IGNORE NULL UPDATES (ON columnSelection)?                 #ignoreNullUpdatesClause
    | APPLY AS DELETE WHEN clauseText                           #deleteClause
    | APPLY AS TRUNCATE WHEN clauseText                         #truncateClause
    | SEQUENCE BY clauseText                                    #sequenceClause
    | COLUMNS columnSelection                                   #columnsClause
    | STORED AS SCD TYPE scdType=IDENTIFIER                     #scdTypeClause
    | TRACK HISTORY ON columnSelection                          #trackHistoryClause
    ;

columnSelection
    : STAR EXCEPT LPAREN identifierList RPAREN
    | STAR
    | LPAREN identifierList RPAREN
    | identifierList
    ;

setConfiguration
    : SET rawText?
    ;

useNamespace
    : USE (CATALOG | SCHEMA | DATABASE) multipartIdentifier
    ;

identifierList
    : identifier (COMMA identifier)*
    ;

multipartIdentifier
    : identifier (DOT identifier)*
    ;

identifier
    : IDENTIFIER
    | BACKQUOTED_IDENTIFIER
    | nonReserved
    ;

// Our keywords stay usable as names: a column called "name" or a table called "flow".
nonReserved
    : APPLY | AS | AUTO | BY | CATALOG | CDC | CLUSTER | COLUMNS | COMMENT | CONSTRAINT | DATABASE
    | DELETE | DROP | EXCEPT | EXPECT | FAIL | FLOW | FULL | HISTORY | IGNORE | INCREMENTAL | INSERT | INTO | KEYS
    | MATERIALIZED | NAME | NULL | ON | ONCE | OPTIONS | OR | PARTITIONED | POLICY | REFRESH | REPLACE | ROW | SCD
    | SCHEMA | SEQUENCE | SET | SINK | SNAPSHOT | STORED | STREAM | STREAMING | STRICT | TABLE | TBLPROPERTIES | TEMPORARY
    | TRACK | TRUNCATE | TYPE | UPDATE | UPDATES | USE | USING | VERSION | VIEW | VIOLATION | WHEN
    ;

queryText
    : rawText
    ;

rawText
    : (~SEMI)+
    ;

// One column definition: anything up to a top-level comma or the closing parenthesis.
columnText
    : (balanced | ~(COMMA | LPAREN | RPAREN | SEMI | CONSTRAINT))+
    ;

expressionText
    : (balanced | ~(LPAREN | RPAREN | SEMI))+
    ;

// An expression that a query or BY NAME follows: it ends where they start.
sequenceText
    : (balanced | ~(LPAREN | RPAREN | SEMI | BY | SELECT | WITH | FROM | VALUES))+
    ;

// An AUTO CDC clause's expression: it ends where the next clause starts.
clauseText
    : (balanced | ~(LPAREN | RPAREN | SEMI | KEYS | IGNORE | APPLY | SEQUENCE | COLUMNS | STORED | TRACK))+
    ;

predicateText
    : (balanced | ~(LPAREN | RPAREN | SEMI | SELECT | WITH | FROM | VALUES))+
    ;

balanced
    : LPAREN (balanced | ~(LPAREN | RPAREN | SEMI))* RPAREN
    ;
