/*
 * Tokens of Sluice's pipeline statements. Everything that is not one of our keywords is
 * still tokenised (strings, identifiers, comments) so that a query's text can be cut out
 * exactly and handed to Spark's own parser.
 */
lexer grammar SluiceSqlLexer;

options { caseInsensitive = true; }

SEMI: ';';
LPAREN: '(';
RPAREN: ')';
COMMA: ',';
DOT: '.';
EQ: '=';
STAR: '*';

APPLY: 'APPLY';
AS: 'AS';
AUTO: 'AUTO';
BY: 'BY';
CATALOG: 'CATALOG';
CDC: 'CDC';
CLUSTER: 'CLUSTER';
COLUMNS: 'COLUMNS';
COMMENT: 'COMMENT';
CONSTRAINT: 'CONSTRAINT';
CREATE: 'CREATE';
DATABASE: 'DATABASE';
DELETE: 'DELETE';
DROP: 'DROP';
EXCEPT: 'EXCEPT';
EXPECT: 'EXPECT';
FAIL: 'FAIL';
FLOW: 'FLOW';
FROM: 'FROM';
HISTORY: 'HISTORY';
IGNORE: 'IGNORE';
INSERT: 'INSERT';
INTO: 'INTO';
KEYS: 'KEYS';
MATERIALIZED: 'MATERIALIZED';
NAME: 'NAME';
NULL: 'NULL';
ON: 'ON';
ONCE: 'ONCE';
OPTIONS: 'OPTIONS';
OR: 'OR';
PARTITIONED: 'PARTITIONED';
POLICY: 'POLICY';
REFRESH: 'REFRESH';
FULL: 'FULL';
INCREMENTAL: 'INCREMENTAL';
STRICT: 'STRICT';
REPLACE: 'REPLACE';
ROW: 'ROW';
SCD: 'SCD';
SCHEMA: 'SCHEMA';
SELECT: 'SELECT';
SEQUENCE: 'SEQUENCE';
SET: 'SET';
SINK: 'SINK';
SNAPSHOT: 'SNAPSHOT';
STORED: 'STORED';
STREAM: 'STREAM';
STREAMING: 'STREAMING';
TABLE: 'TABLE';
TBLPROPERTIES: 'TBLPROPERTIES';
TEMPORARY: 'TEMPORARY';
TRACK: 'TRACK';
TRUNCATE: 'TRUNCATE';
TYPE: 'TYPE';
UPDATE: 'UPDATE';
UPDATES: 'UPDATES';
USE: 'USE';
USING: 'USING';
VALUES: 'VALUES';
VERSION: 'VERSION';
VIEW: 'VIEW';
VIOLATION: 'VIOLATION';
WHEN: 'WHEN';
WHERE: 'WHERE';
WITH: 'WITH';

STRING
    : '\'' ( ~['\\] | '\\' . | '\'\'' )* '\''
    | '"' ( ~["\\] | '\\' . )* '"'
    ;

BACKQUOTED_IDENTIFIER: '`' ( ~'`' | '``' )* '`';

IDENTIFIER: [A-Z0-9_]+;

SIMPLE_COMMENT: '--' ~[\r\n]* -> channel(HIDDEN);
// Nested, as Spark's own parser allows.
BRACKETED_COMMENT: '/*' (BRACKETED_COMMENT | .)*? '*/' -> channel(HIDDEN);
WS: [ \t\r\n\u000C]+ -> channel(HIDDEN);

// Operators and any other character: meaningful only to Spark's parser.
OTHER: .;
