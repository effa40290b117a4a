package io.sluice.update;

import io.sluice.ErrorClass;
import io.sluice.Origin;
import io.sluice.api.PipelineDefinition;
import io.sluice.api.RegisteringPipeline;
import io.sluice.graph.DataflowGraph;
import io.sluice.graph.GraphRegistry;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.SpecException;
import io.sluice.sql.SqlDefinitionParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Registers everything a spec's libraries define: SQL files matched by the globs, and the
 * Java {@link PipelineDefinition} classes named by {@code class} entries (from the
 * classpath or from jars the globs match). Needs no Spark session.
 */
public final class LibraryLoader {
  /**
   * Definition files of other engines (Spark's Python pipelines, notebooks): refused rather than
   * skipped, since a pipeline that silently lost its definitions would still run. Other files
   * (a README beside the SQL) are skipped.
   */
  private static final List<String> UNSUPPORTED = List.of(".py", ".ipynb", ".scala", ".r", ".dbc");

  private LibraryLoader() {}

  public static DataflowGraph load(PipelineSpec spec) {
    GraphRegistry registry = new GraphRegistry(
        spec.catalog().orElse(PipelineSpec.DEFAULT_CATALOG), spec.database().orElse(PipelineSpec.DEFAULT_DATABASE));
    Set<Path> seen = new HashSet<>();
    List<Path> jars = new ArrayList<>();
    List<String> classes = new ArrayList<>();
    for (PipelineSpec.Library library : spec.libraries()) {
      if (library instanceof PipelineSpec.Glob glob) {
        for (Path file : expand(spec, glob)) {
          if (!seen.add(file)) {
            continue;
          }
          String name = file.getFileName().toString().toLowerCase();
          if (name.endsWith(".sql")) {
            SqlDefinitionParser.parse(relative(spec, file), read(file), registry, spec.root());
          } else if (name.endsWith(".jar")) {
            jars.add(file);
          } else if (UNSUPPORTED.stream().anyMatch(name::endsWith)) {
            throw new SpecException(ErrorClass.UNSUPPORTED_LIBRARY_FILE, Origin.of(relative(spec, file), 0),
                "library glob '" + String.join(", ", glob.include()) + "' matches " + relative(spec, file)
                    + ", which Sluice cannot run: it runs SQL files (.sql) and Java definitions (a jar or a"
                    + " '- class: NAME' library); write it in SQL or Java, or leave it out with the glob's 'exclude'");
          }
        }
      } else if (library instanceof PipelineSpec.JavaClass javaClass) {
        classes.add(javaClass.className());
      }
    }
    ClassLoader loader = classLoader(jars);
    for (String className : classes) {
      instantiate(spec, loader, className).define(new RegisteringPipeline(registry, spec.root()));
    }
    return registry.toGraph();
  }

  /** The files a glob matches and does not exclude, sorted for a stable order. */
  static List<Path> expand(PipelineSpec spec, PipelineSpec.Glob glob) {
    Path root = spec.root();
    Predicate<Path> included = matcher(glob.include());
    Predicate<Path> excluded = matcher(glob.exclude());
    List<Path> matches = filesUnder(root, spec.storage().localFolder()).stream()
        .map(root::relativize)
        .filter(f -> included.test(f) && !excluded.test(f))
        .map(root::resolve)
        .sorted()
        .toList();
    if (matches.isEmpty()) {
      throw new SpecException(ErrorClass.GLOB_MATCHES_NOTHING, Origin.of(spec.specFile().getFileName().toString(), 0),
          "library glob '" + String.join(", ", glob.include()) + "'"
              + (glob.exclude().isEmpty() ? "" : " without '" + String.join(", ", glob.exclude()) + "'")
              + " matches no file under " + root);
    }
    return matches;
  }

  /**
   * The files under {@code root}, but for those of the pipeline's storage when it is inside: its
   * tables, checkpoints and metastore hold many files, and change while they are walked (Derby
   * replaces its lock file as the metastore boots, on a thread of its own). A file that goes
   * while the walk passes is left out.
   */
  private static List<Path> filesUnder(Path root, Path storage) {
    List<Path> files = new ArrayList<>();
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
          return dir.toAbsolutePath().normalize().equals(storage) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          if (Files.isRegularFile(file)) {
            files.add(file);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
          }
          throw e;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** Whether a path relative to the pipeline folder matches any of the patterns. */
  private static Predicate<Path> matcher(List<String> patterns) {
    Predicate<Path> any = path -> false;
    for (String pattern : patterns) {
      String glob = pattern.startsWith("./") ? pattern.substring(2) : pattern;
      // "dir/**/*.sql" should also match files directly in dir, as users of other glob tools expect.
      PathMatcher deep = FileSystems.getDefault().getPathMatcher("glob:" + glob);
      PathMatcher shallow = FileSystems.getDefault().getPathMatcher("glob:" + glob.replace("**/", ""));
      any = any.or(deep::matches).or(shallow::matches);
    }
    return any;
  }

  private static PipelineDefinition instantiate(PipelineSpec spec, ClassLoader loader, String className) {
    Origin origin = Origin.of(spec.specFile().getFileName().toString(), 0);
    try {
      Class<?> type = Class.forName(className, true, loader);
      if (!PipelineDefinition.class.isAssignableFrom(type)) {
        throw new SpecException(ErrorClass.NOT_A_PIPELINE_DEFINITION, origin,
            "class " + className + " does not implement " + PipelineDefinition.class.getName());
      }
      return (PipelineDefinition) type.getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException e) {
      throw new SpecException(ErrorClass.CLASS_NOT_FOUND, origin,
          "class " + className + " is not on the classpath nor in a jar that a library glob matches", e);
    } catch (ReflectiveOperationException e) {
      throw new SpecException(ErrorClass.CLASS_NOT_INSTANTIABLE, origin,
          "cannot create " + className + " (it needs a public no-argument constructor): " + e, e);
    }
  }

  private static ClassLoader classLoader(List<Path> jars) {
    ClassLoader parent = LibraryLoader.class.getClassLoader();
    if (jars.isEmpty()) {
      return parent;
    }
    URL[] urls = jars.stream().map(LibraryLoader::url).toArray(URL[]::new);
    return new URLClassLoader(urls, parent);
  }

  private static URL url(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String relative(PipelineSpec spec, Path file) {
    return spec.root().relativize(file).toString();
  }

  private static String read(Path file) {
    try {
      String text = Files.readString(file);
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
