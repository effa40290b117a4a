package io.sluice.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The pipeline a JUnit 5 test class (or one test method, or one {@link PipelineTest} parameter)
 * tests, with {@link PipelineTestExtension}: its folder, relative to the folder the tests run in.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.PARAMETER})
public @interface PipelineUnderTest {
  String value();
}
