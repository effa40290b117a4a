package io.sluice.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sluice's small files under storage, through Hadoop's file system: here the local one. */
class StoragePathTest {
  @TempDir Path dir;

  @Test
  void aFileIsWrittenWithItsFoldersReadAndReplacedWithNothingBesideIt() throws IOException {
    StoragePath file = StoragePath.local(dir).resolve("checkpoints").resolve("flow").resolve("sluice-batch");

    assertEquals(Optional.empty(), file.readIfExists());
    file.write("one");
    file.write("two");

    assertEquals(Optional.of("two"), file.readIfExists());
    assertEquals(List.of("sluice-batch"), Files.list(dir.resolve("checkpoints/flow")).map(p -> p.getFileName().toString()).toList(),
        "no temporary or checksum file is left");
    assertEquals(dir.resolve("checkpoints/flow/sluice-batch").toString(), file.toString(), "a local path shows as a plain path");
  }

  @Test
  void foldersAreListedAndDeletedWholeAndMissingOnesAreEmpty() {
    StoragePath root = StoragePath.local(dir);
    root.resolve("pending/a").write("a");
    root.resolve("pending/b").write("b");

    assertEquals(List.of("a", "b"), root.resolve("pending").list().stream().map(StoragePath::name).sorted().toList());
    assertTrue(root.resolve("pending").isDirectory());
    root.resolve("pending").delete();
    assertFalse(root.resolve("pending").exists());
    assertEquals(List.of(), root.resolve("pending").list());
    root.resolve("pending").delete();
  }

  @Test
  void aDeltaTableIsAFolderWhoseLogHoldsACommit() throws IOException {
    StoragePath table = StoragePath.local(dir).resolve("event_log");
    assertFalse(table.isDeltaTable());

    // What a first commit that failed left on S3.
    Files.createDirectories(dir.resolve("event_log/_delta_log/_staged_commits"));
    assertFalse(table.isDeltaTable());

    Files.writeString(dir.resolve("event_log/_delta_log/00000000000000000000.json"), "{}");
    assertTrue(table.isDeltaTable());
  }
}
