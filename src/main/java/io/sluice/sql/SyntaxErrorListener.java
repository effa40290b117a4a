package io.sluice.sql;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.graph.GraphException;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;

/** Turns the first ANTLR syntax error into a {@link GraphException} at its file and line. */
final class SyntaxErrorListener extends BaseErrorListener {
  private final String file;

  SyntaxErrorListener(String file) {
    this.file = file;
  }

  @Override
  public void syntaxError(
      Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int column, String msg, RecognitionException e) {
    String readable = msg.replace("{", "").replace("}", "").replace("<EOF>", "end of file");
    throw new GraphException(ErrorClass.SQL_SYNTAX_ERROR, Origin.of(file, line, column + 1), readable);
  }
}
