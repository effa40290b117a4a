package io.sluice.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice init DIR} or {@code sluice init --name NAME} (as Spark's {@code spark-pipelines
 * init} takes it: the folder NAME under the current one): a new pipeline folder with a working sample.
 */
@Command(name = "init", description = "Create a pipeline folder with a spec and a working sample pipeline.")
final class InitCommand implements Callable<Integer> {
  /** The quickstart example's files, packaged as resources under scaffold/ by the build. */
  private static final List<String> FILES = List.of(
      "spark-pipeline.yml",
      "transformations/orders.sql",
      "data/orders/orders-0001.json",
      "data/orders/orders-0002.json",
      "data/orders/orders-0003.json",
      "tests/orders.yml");

  /** Plain words that YAML reads as a boolean or null, not as a string. */
  private static final Set<String> YAML_WORDS = Set.of("true", "false", "null", "yes", "no", "on", "off", "y", "n");

  @Spec CommandSpec command;

  @Parameters(arity = "0..1", paramLabel = "DIR", description = "The folder to create (default: NAME).")
  Path dir;

  @Option(names = "--name", paramLabel = "NAME",
      description = "The pipeline's name (default: the folder's name); without DIR, also the folder to create.")
  String name;

  @Override
  public Integer call() {
    if (dir == null && name == null) {
      throw new ParameterException(command.commandLine(), "give the folder to create (DIR), or --name NAME");
    }
    if (name != null && name.isBlank()) {
      throw new ParameterException(command.commandLine(), "--name must not be blank");
    }
    if (dir == null && (name.contains("/") || name.contains(File.separator) || name.equals(".") || name.equals(".."))) {
      throw new ParameterException(command.commandLine(), "--name '" + name + "' is not a folder name: give the folder"
          + " to create as DIR (init DIR --name NAME)");
    }
    Path folder = dir != null ? dir : Path.of(name);
    Path root = folder.toAbsolutePath().normalize();
    if (dir == null && Files.exists(root)) {
      // As spark-pipelines init: a new project gets a new folder, never files among someone else's.
      command.commandLine().getErr().println(root + " already exists; choose another name, or give the folder as DIR");
      return PipelineCommand.FAILED;
    }
    if (Files.exists(root.resolve("spark-pipeline.yml")) || Files.exists(root.resolve("spark-pipeline.yaml"))) {
      command.commandLine().getErr().println(root + " already holds a pipeline; choose another folder");
      return PipelineCommand.FAILED;
    }
    String pipeline = name != null ? name : root.getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_");
    for (String file : FILES) {
      String text = resource(file);
      write(root.resolve(file), file.equals("spark-pipeline.yml")
          ? text.replaceFirst("(?m)^name: .*$", Matcher.quoteReplacement("name: " + yamlString(pipeline))) : text);
    }
    ignoreStorage(root.resolve(".gitignore"));
    command.commandLine().getOut().println("created pipeline '" + pipeline + "' in " + root);
    command.commandLine().getOut().println("next: cd " + SluiceCli.shellWord(folder.toString()) + " && " + SluiceCli.launcher() + " run");
    return 0;
  }

  /** Adds the pipeline's storage to the folder's {@code .gitignore}, keeping what it holds. */
  private static void ignoreStorage(Path gitignore) {
    try {
      String text = Files.exists(gitignore) ? Files.readString(gitignore) : "";
      if (!text.lines().anyMatch(line -> line.strip().equals(".sluice/"))) {
        write(gitignore, text + (text.isEmpty() || text.endsWith("\n") ? "" : "\n") + ".sluice/\n");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + gitignore, e);
    }
  }

  /** {@code text} as a YAML scalar: plain when YAML reads it back as that string, else double-quoted. */
  private static String yamlString(String text) {
    if (text.matches("[A-Za-z_][A-Za-z0-9_-]*") && !YAML_WORDS.contains(text.toLowerCase(Locale.ROOT))) {
      return text;
    }
    StringBuilder quoted = new StringBuilder("\"");
    text.codePoints().forEach(c -> {
      if (c == '"' || c == '\\') {
        quoted.append('\\').appendCodePoint(c);
      } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFEFF || c == 0x2028 || c == 0x2029
          || (c >= 0xD800 && c <= 0xDFFF)) {
        quoted.append(String.format("\\u%04x", c));
      } else {
        quoted.appendCodePoint(c);
      }
    });
    return quoted.append('"').toString();
  }

  private static String resource(String file) {
    String path = "/scaffold/" + file;
    try (InputStream in = InitCommand.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing scaffold resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
