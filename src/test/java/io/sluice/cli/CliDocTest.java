package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/cli.md names every command of the command line under a heading of its own ("## sluice
 * run", "#### sluice bench auto-cdc"), and every option of that command in the text under it, up
 * to the next heading. {@code --help} and {@code --version}, which every command takes, are
 * documented once for all. No Spark: building the command line opens no session.
 */
class CliDocTest {
  private static final Pattern HEADING = Pattern.compile("^#+\\s+(.*?)\\s*$");

  @Test
  void theCliPageDocumentsEveryCommandAndOption() throws IOException {
    Map<String, String> sections = sections(Files.readAllLines(Path.of("docs/cli.md")));
    List<String> missing = new ArrayList<>();
    CommandLine root = SluiceCli.commandLine(SessionSource.OWN);
    root.getSubcommands().values().forEach(sub -> check(sub, sections, missing));
    assertTrue(missing.isEmpty(), "docs/cli.md lacks:\n  " + String.join("\n  ", missing));
  }

  private static void check(CommandLine command, Map<String, String> sections, List<String> missing) {
    String name = command.getCommandSpec().qualifiedName();
    String section = sections.get(name);
    if (section == null) {
      missing.add("a heading '" + name + "'");
    } else {
      for (OptionSpec option : command.getCommandSpec().options()) {
        if (option.usageHelp() || option.versionHelp()) {
          continue;
        }
        for (String optionName : option.names()) {
          if (!Pattern.compile("(?<![\\w-])" + Pattern.quote(optionName) + "(?![\\w-])").matcher(section).find()) {
            missing.add(optionName + " under '" + name + "'");
          }
        }
      }
    }
    command.getSubcommands().values().forEach(sub -> check(sub, sections, missing));
  }

  /** Each heading's text (without its #s and backquotes), with the lines under it up to the next heading. */
  private static Map<String, String> sections(List<String> lines) {
    Map<String, String> sections = new LinkedHashMap<>();
    String heading = null;
    StringBuilder text = new StringBuilder();
    boolean code = false;
    for (String line : lines) {
      if (line.startsWith("```")) {
        code = !code;
      }
      var match = HEADING.matcher(line);
      if (!code && match.matches()) {
        if (heading != null) {
          sections.put(heading, text.toString());
        }
        heading = match.group(1).replace("`", "");
        text.setLength(0);
      } else {
        text.append(line).append('\n');
      }
    }
    if (heading != null) {
      sections.put(heading, text.toString());
    }
    return sections;
  }
}
