package io.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice init DIR}: a new pipeline folder with a working sample. */
@Command(name = "init", description = "Create a pipeline folder with a spec and a working sample pipeline.")
final class InitCommand implements Callable<Integer> {
  /** The quickstart example's files, packaged as resources under scaffold/ by the build. */
  private static final List<String> FILES = List.of(
      "spark-pipeline.yml",
      "transformations/orders.sql",
      "data/orders/orders-0001.json",
      "data/orders/orders-0002.json",
      "data/orders/orders-0003.json");

  @Spec CommandSpec command;

  @Parameters(arity = "1", paramLabel = "DIR", description = "The folder to create.")
  Path dir;

  @Override
  public Integer call() {
    Path root = dir.toAbsolutePath().normalize();
    if (Files.exists(root.resolve("spark-pipeline.yml")) || Files.exists(root.resolve("spark-pipeline.yaml"))) {
      command.commandLine().getErr().println(root + " already holds a pipeline; choose another folder");
      return PipelineCommand.FAILED;
    }
    String name = root.getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_");
    for (String file : FILES) {
      String text = resource(file);
      write(root.resolve(file), file.equals("spark-pipeline.yml") ? text.replaceFirst("(?m)^name: .*$", "name: " + name) : text);
    }
    write(root.resolve(".gitignore"), ".sluice/\n");
    command.commandLine().getOut().println("created pipeline '" + name + "' in " + root);
    command.commandLine().getOut().println("next: cd " + SluiceCli.shellWord(dir.toString()) + " && " + SluiceCli.launcher() + " run");
    return 0;
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
