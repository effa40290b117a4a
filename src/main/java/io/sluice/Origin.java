package io.sluice;

/**
 * Where a definition (or an error in it) came from: a file, a 1-based line and, when known, a
 * 1-based column; or a Java class.
 */
public record Origin(String source, int line, int column) {
  public static final Origin UNKNOWN = new Origin("", 0, 0);

  public static Origin of(String source, int line) {
    return new Origin(source, line, 0);
  }

  public static Origin of(String source, int line, int column) {
    return new Origin(source, line, column);
  }

  public boolean isKnown() {
    return !source.isEmpty();
  }

  /** The same file and line, without a column: for errors about a whole text that starts here. */
  public Origin lineOnly() {
    return new Origin(source, line, 0);
  }

  /**
   * A position inside a text that starts at this origin, given 1-based from the text's start
   * (as Spark's parser gives it): the line and column in the file.
   */
  public Origin at(int lineInText, int columnInLine) {
    return new Origin(source, line + lineInText - 1, lineInText == 1 && column > 0 ? column + columnInLine - 1 : columnInLine);
  }

  @Override
  public String toString() {
    return line <= 0 ? source : column <= 0 ? source + ":" + line : source + ":" + line + ":" + column;
  }
}
