package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The list of error classes in docs/errors.md is the catalog's, class by class and word for word
 * (its first two columns; the third says what to do).
 */
class ErrorClassTest {
  private static final Pattern ROW = Pattern.compile("^\\| `([A-Z0-9_]+)` \\| (.+) \\| [^|]+ \\|$");

  @Test
  void theErrorsPageListsEveryErrorClassWithItsMeaning() throws IOException {
    List<String> page = new ArrayList<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(Path.of("docs/errors.md"))) {
      if (line.startsWith("## ")) {
        inSection = line.equals("## Error classes");
      }
      Matcher row = ROW.matcher(line);
      if (inSection && row.matches()) {
        page.add(row.group(1) + ": " + row.group(2));
      }
    }
    List<String> catalog = Arrays.stream(ErrorClass.values()).map(c -> c.name() + ": " + c.meaning()).toList();
    assertEquals(String.join("\n", catalog), String.join("\n", page));
  }
}
