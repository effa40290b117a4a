package io.sluice.testsupport;

/** Line numbers of test code, to check that errors name the user's line. */
public final class SourceLines {
  private SourceLines() {}

  /** The line this method is called from. */
  public static int here() {
    return StackWalker.getInstance().walk(s -> s.skip(1).findFirst().orElseThrow()).getLineNumber();
  }
}
