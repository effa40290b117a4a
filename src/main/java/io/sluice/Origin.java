package io.sluice;

/** Where a definition came from: a file and a 1-based line, or a Java class. */
public record Origin(String source, int line) {
  public static final Origin UNKNOWN = new Origin("", 0);

  public static Origin of(String source, int line) {
    return new Origin(source, line);
  }

  public boolean isKnown() {
    return !source.isEmpty();
  }

  /** The same file, {@code lines - 1} lines further down: for positions inside a statement. */
  public Origin plusLines(int lines) {
    return new Origin(source, line + lines);
  }

  @Override
  public String toString() {
    return line > 0 ? source + ":" + line : source;
  }
}
