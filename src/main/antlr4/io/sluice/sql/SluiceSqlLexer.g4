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

AS: 'AS';
BY: 'BY';
CATALOG: 'CATALOG';
CLUSTER: 'CLUSTER';
COMMENT: 'COMMENT';
CONSTRAINT: 'CONSTRAINT';
CREATE: 'CREATE';
DATABASE: 'DATABASE';
DROP: 'DROP';
EXPECT: 'EXPECT';
FAIL: 'FAIL';
FLOW: 'FLOW';
FROM: 'FROM';
INSERT: 'INSERT';
INTO: 'INTO';
MATERIALIZED: 'MATERIALIZED';
NAME: 'NAME';
ON: 'ON';
OR: 'OR';
PARTITIONED: 'PARTITIONED';
REFRESH: 'REFRESH';
REPLACE: 'REPLACE';
ROW: 'ROW';
SCHEMA: 'SCHEMA';
SELECT: 'SELECT';
SEQUENCE: 'SEQUENCE';
SET: 'SET';
STREAMING: 'STREAMING';
TABLE: 'TABLE';
TBLPROPERTIES: 'TBLPROPERTIES';
TEMPORARY: 'TEMPORARY';
UPDATE: 'UPDATE';
USE: 'USE';
USING: 'USING';
VALUES: 'VALUES';
VIEW: 'VIEW';
VIOLATION: 'VIOLATION';
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
