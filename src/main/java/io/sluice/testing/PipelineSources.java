package io.sluice.testing;

import io.sluice.graph.ResolvedFlow;
import io.sluice.graph.ResolvedGraph;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The file sources a pipeline reads ({@code read_files}), by the name a test gives them:
 * {@code <format> files <folder>}, the folder relative to the pipeline's folder when it is in it.
 */
final class PipelineSources {
  private static final String FILES = " files ";

  private PipelineSources() {}

  /** Each file source of {@code graph}, by its name, to its folder. */
  static Map<String, Path> files(ResolvedGraph graph, Path root) {
    Map<String, Path> sources = new LinkedHashMap<>();
    for (ResolvedFlow flow : graph.flows()) {
      for (String label : flow.externalSources()) {
        int at = label.indexOf(FILES);
        if (at > 0) {
          Path folder = root.resolve(label.substring(at + FILES.length())).normalize();
          sources.put(name(label.substring(0, at), folder.startsWith(root) ? root.relativize(folder) : folder), folder);
        }
      }
    }
    return sources;
  }

  /** A source's name as a test writes it, normalised: {@code JSON files ./data/users/} is {@code json files data/users}. */
  static String normalise(String name) {
    int at = name.indexOf(FILES);
    if (at <= 0) {
      return name.trim();
    }
    return name(name.substring(0, at).trim(), Path.of(name.substring(at + FILES.length()).trim()).normalize());
  }

  private static String name(String format, Path folder) {
    return format.toLowerCase(Locale.ROOT) + FILES + folder;
  }
}
