package io.sluice;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every rule the sources cite by section ({@code SEMANTICS §N.M}, {@code (§N)}) has a heading in
 * docs/semantics.md, so that a contributor can look up the rule a comment names.
 */
class SemanticsCitationsTest {
  private static final Path DOC = Path.of("docs/semantics.md");
  // src/tools cites the rules too (its benchmarks), so the whole of src is read.
  private static final Path SOURCES = Path.of("src");
  // Written with an escape so that the pattern cannot cite a section itself.
  private static final Pattern CITATION = Pattern.compile("\u00a7 ?(\\d+(?:\\.\\d+)*)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(\\d+(?:\\.\\d+)*)\\.?(?:\\s|$)");

  @Test
  void theSemanticsPageHasNumberedSections() throws IOException {
    assertFalse(sections().isEmpty(), DOC + " has no numbered heading (## 4. ..., ### 4.3 ...)");
  }

  @Test
  void everyCitedSectionIsAHeadingOfTheSemanticsPage() throws IOException {
    Set<String> sections = sections();
    List<String> citations = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        List<String> lines;
        try {
          lines = Files.readAllLines(file);
        } catch (CharacterCodingException binary) {
          continue;
        }
        for (int i = 0; i < lines.size(); i++) {
          Matcher citation = CITATION.matcher(lines.get(i));
          while (citation.find()) {
            String where = file + ":" + (i + 1) + ": \u00a7" + citation.group(1);
            citations.add(where);
            if (!sections.contains(citation.group(1))) {
              missing.add(where);
            }
          }
        }
      }
    }
    // No citation found means the walk looked in the wrong place, not that all is well.
    assertFalse(citations.isEmpty(), "no section citation found under " + SOURCES.toAbsolutePath());
    assertTrue(missing.isEmpty(), "cited, but no heading in " + DOC + " starts with the section's number:\n"
        + String.join("\n", missing));
  }

  /** The section numbers of the page's headings, outside fenced code blocks. */
  private static Set<String> sections() throws IOException {
    Set<String> sections = new LinkedHashSet<>();
    boolean inCode = false;
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("```") || line.startsWith("~~~")) {
        inCode = !inCode;
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      if (!inCode && heading.find()) {
        sections.add(heading.group(1));
      }
    }
    return sections;
  }
}
