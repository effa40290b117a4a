package io.sluice.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/** What one finished {@code sluice} command left behind: its exit code and what it printed. */
public record CommandResult(List<String> command, int exit, String stdout, String stderr, Duration took) {
  private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w.$/<>]+\\(");

  public String output() {
    return stdout + stderr;
  }

  /** The non-blank lines of stderr. */
  public List<String> errorLines() {
    return stderr.lines().filter(l -> !l.isBlank()).toList();
  }

  public boolean hasStackTrace() {
    return STACK_FRAME.matcher(stderr).find() || stderr.contains("Exception:") || stderr.contains("\tat ");
  }

  @Override
  public String toString() {
    return "sluice " + String.join(" ", command) + " -> exit " + exit + " in " + took.toSeconds() + " s"
        + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
  }
}
