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

/** The README's list of error classes is the catalog's, class by class and word for word. */
class ErrorClassTest {
  private static final Pattern ROW = Pattern.compile("^\\| `([A-Z0-9_]+)` \\| (.+) \\|$");

  @Test
  void theReadmeListsEveryErrorClassWithItsMeaning() throws IOException {
    List<String> readme = new ArrayList<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(Path.of("README.md"))) {
      if (line.startsWith("## ")) {
        inSection = line.equals("## Error classes");
      }
      Matcher row = ROW.matcher(line);
      if (inSection && row.matches()) {
        readme.add(row.group(1) + ": " + row.group(2));
      }
    }
    List<String> catalog = Arrays.stream(ErrorClass.values()).map(c -> c.name() + ": " + c.meaning()).toList();
    assertEquals(String.join("\n", catalog), String.join("\n", readme));
  }
}
