package io.sluice.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.sql.delta.actions.SetTransaction;
import org.junit.jupiter.api.Test;
import scala.Option;

class CommitTagTest {
  private final CommitTag tag = new CommitTag("6f1c-app", 7);

  @Test
  void aTagIsJsonInTheCommitsUserMetadata() {
    assertEquals("{\"sluice\":{\"app\":\"6f1c-app\",\"batch\":7}}", tag.json());
    assertTrue(tag.isIn(tag.json()));
    assertTrue(tag.isIn("{\"sluice\":{\"batch\":7,\"app\":\"6f1c-app\"},\"other\":1}"), "field order and extras do not matter");
  }

  @Test
  void anotherBatchAppOrMetadataIsNotTheTag() {
    assertFalse(tag.isIn(new CommitTag("6f1c-app", 8).json()));
    assertFalse(tag.isIn(new CommitTag("other-app", 7).json()));
    assertFalse(tag.isIn("{\"sluice\":{\"app\":\"6f1c-app\",\"batch\":\"seven\"}}"));
    assertFalse(tag.isIn("nightly load by Ann"), "a user's own metadata, not JSON");
    assertFalse(tag.isIn("{\"app\":\"6f1c-app\",\"batch\":7}"));
  }

  @Test
  void aCommitOfBeforeTagsIsKnownByDeltasAppVersion() {
    assertTrue(tag.marks(List.of(new SetTransaction("6f1c-app", 7, Option.empty()))));
    assertFalse(tag.marks(List.of(new SetTransaction("6f1c-app", 6, Option.empty()))));
    assertFalse(tag.marks(List.of()));
  }
}
