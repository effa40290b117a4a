package io.sluice.testing;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: gives a test method a {@link PipelineTest} of the pipeline its {@link PipelineUnderTest}
 * names, and closes it after the method (removing a passed test's folder). Every test of the JVM
 * shares one Spark session ({@link TestSession}), and each pipeline is resolved once.
 *
 * <pre>{@code
 * @ExtendWith(PipelineTestExtension.class)
 * @PipelineUnderTest("pipelines/users")
 * class UsersPipelineTest {
 *   @Test
 *   void aDeleteRemovesTheUser(PipelineTest test) {
 *     test.given("json files data/users", row("userId", 1, "operation", "INSERT", "sequenceNum", 1))
 *         .update()
 *         .expectCount("users_scd1", 1);
 *   }
 * }
 * }</pre>
 */
public final class PipelineTestExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PipelineTestExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == PipelineTest.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    String folder = Stream.<AnnotatedElement>of(parameter.getParameter(), context.getRequiredTestMethod(), context.getRequiredTestClass())
        .map(element -> element.getAnnotation(PipelineUnderTest.class)).filter(a -> a != null).findFirst().map(PipelineUnderTest::value)
        .or(() -> enclosing(context))
        .orElseThrow(() -> new ParameterResolutionException("name the pipeline a PipelineTest tests with @PipelineUnderTest(\"its/folder\")"
            + " on the parameter, the test method or its class"));
    PipelineTest test = PipelineTest.of(Path.of(folder));
    // Closed by JUnit after the test method: a passed test's folder is removed, a failed one's kept.
    context.getStore(NAMESPACE).put(parameter.getIndex(), (ExtensionContext.Store.CloseableResource) test::close);
    return test;
  }

  /** The folder a class around a nested test class names. */
  private static Optional<String> enclosing(ExtensionContext context) {
    for (Class<?> type = context.getRequiredTestClass().getEnclosingClass(); type != null; type = type.getEnclosingClass()) {
      PipelineUnderTest folder = type.getAnnotation(PipelineUnderTest.class);
      if (folder != null) {
        return Optional.of(folder.value());
      }
    }
    return Optional.empty();
  }
}
