package io.sluice.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles one Java source against the test classpath and packs it into a jar, as a user would ship definitions. */
public final class JarBuilder {
  private JarBuilder() {}

  public static void compileToJar(Path jar, String className, String source) throws IOException {
    Path work = Files.createTempDirectory("sluice-jar");
    Path file = work.resolve("src").resolve(className.replace('.', '/') + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, source);
    Path classes = Files.createDirectories(work.resolve("classes"));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    int status = compiler.run(null, null, null, "-d", classes.toString(),
        "-cp", System.getProperty("java.class.path"), file.toString());
    if (status != 0) {
      throw new IllegalStateException("could not compile " + className);
    }
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path path : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace('\\', '/')));
        Files.copy(path, (OutputStream) out);
        out.closeEntry();
      }
    }
  }

}
