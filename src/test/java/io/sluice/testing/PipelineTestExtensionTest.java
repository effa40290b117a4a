package io.sluice.testing;

import static io.sluice.testing.PipelineTest.row;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The JUnit 5 extension as a user's build has it: a fresh test of the pipeline per method, closed after it. */
@ExtendWith(PipelineTestExtension.class)
@PipelineUnderTest("examples/auto-cdc")
class PipelineTestExtensionTest {
  private static final List<PipelineTest> GIVEN = new ArrayList<>();

  @BeforeAll
  static void sharedSession() {
    SharedSpark.session(); // the session the kit finds active, as a user's suite that opens its own
  }

  @Test
  void aTestMethodIsGivenATestOfThePipeline(PipelineTest test) {
    GIVEN.add(test);
    test.given("json files data/users", row("userId", 3, "name", "Di", "city", "Oslo", "operation", "INSERT", "sequenceNum", 1))
        .update()
        .expect("users_scd1", row("userId", 3, "name", "Di"));
  }

  @Test
  void eachMethodHasItsOwnCopy(PipelineTest test) {
    GIVEN.add(test);
    test.update().expectEmpty("users_scd1");
  }

  @AfterAll
  static void eachWasClosedAndRemoved() {
    assertTrue(GIVEN.size() == 2, "both methods ran with a test");
    assertNotSame(GIVEN.get(0).folder(), GIVEN.get(1).folder());
    for (PipelineTest test : GIVEN) {
      assertTrue(!Files.exists(test.folder()), "closed after its method: " + test.folder());
    }
    assertTrue(!Files.exists(Path.of("examples/auto-cdc/.sluice")));
  }
}
