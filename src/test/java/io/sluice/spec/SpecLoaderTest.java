package io.sluice.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SEMANTICS §1.1: the spec file. */
class SpecLoaderTest {
  @TempDir Path dir;

  private Path write(String file, String yaml) throws IOException {
    return Files.writeString(dir.resolve(file), yaml);
  }

  private SluiceException loadFails() {
    return assertThrows(SluiceException.class, () -> SpecLoader.load(dir));
  }

  @Test
  void readsEveryField() throws IOException {
    Path specFile = write("spark-pipeline.yml", """
        name: orders
        storage: state/storage
        catalog: cat
        database: sales
        configuration:
          spark.sql.shuffle.partitions: 4
          some.flag: true
          some.ratio: 0.5
          some.text: hello
        libraries:
          - glob:
              include: transformations/**/*.sql
          - class: com.example.Definitions
        """);

    PipelineSpec spec = SpecLoader.load(dir);

    assertEquals(dir.toAbsolutePath().normalize(), spec.root());
    assertEquals(specFile.toAbsolutePath().normalize(), spec.specFile());
    assertEquals("orders", spec.name());
    assertEquals(dir.toAbsolutePath().normalize().resolve("state/storage"), spec.storage().localFolder());
    assertTrue(spec.storage().isLocal());
    assertEquals(Optional.of("cat"), spec.catalog());
    assertEquals(Optional.of("sales"), spec.database());
    assertEquals(Map.of(
        "spark.sql.shuffle.partitions", "4",
        "some.flag", "true",
        "some.ratio", "0.5",
        "some.text", "hello"), spec.configuration());
    assertEquals(List.of(
        new PipelineSpec.Glob(List.of("transformations/**/*.sql"), List.of()),
        new PipelineSpec.JavaClass("com.example.Definitions")), spec.libraries());
  }

  @Test
  void minimalSpecHasNoOptionalFields() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\n");

    PipelineSpec spec = SpecLoader.load(dir);

    assertEquals("p", spec.name());
    assertEquals(Optional.empty(), spec.catalog());
    assertEquals(Optional.empty(), spec.database());
    assertEquals(Map.of(), spec.configuration());
    assertEquals(List.of(), spec.libraries());
  }

  @Test
  void relativeStorageIsResolvedAgainstTheSpecFolderNotTheWorkingDirectory() throws IOException {
    Path pipeline = Files.createDirectories(dir.resolve("pipelines/one"));
    Files.writeString(pipeline.resolve("spark-pipeline.yml"), "name: p\nstorage: ../shared/./storage\n");

    PipelineSpec spec = SpecLoader.load(pipeline);

    assertEquals(dir.toAbsolutePath().normalize().resolve("pipelines/shared/storage"), spec.storage().localFolder());
  }

  @Test
  void absoluteStorageIsKept() throws IOException {
    Path storage = dir.resolve("elsewhere").toAbsolutePath();
    write("spark-pipeline.yml", "name: p\nstorage: " + storage + "\n");

    assertEquals(storage, SpecLoader.load(dir).storage().localFolder());
  }

  @Test
  void storageOnAnObjectStoreKeepsItsUriAndLocksInThePipelinesFolder() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: s3a://lake/pipelines/p/\n");

    Storage storage = SpecLoader.load(dir).storage();

    assertFalse(storage.isLocal());
    assertEquals("s3a://lake/pipelines/p", storage.toString());
    assertEquals("s3a://lake/pipelines/p/system/event_log", storage.resolve("system/event_log"));
    assertEquals(dir.toAbsolutePath().normalize().resolve(".sluice"), storage.localFolder());
  }

  @Test
  void aFileUriIsALocalFolder() throws IOException {
    Path folder = dir.resolve("state").toAbsolutePath();
    write("spark-pipeline.yml", "name: p\nstorage: " + folder.toUri() + "\n");

    Storage storage = SpecLoader.load(dir).storage();

    assertTrue(storage.isLocal());
    assertEquals(folder, storage.localFolder());
  }

  @Test
  void storageThatIsNoUriIsAnError() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: s3a://my bucket/p\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_INVALID", e.errorClass());
    assertTrue(e.getMessage().contains("storage is not a folder or a URI"), e.getMessage());
  }

  @Test
  void schemaIsAnAliasOfDatabase() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nschema: bronze\n");

    assertEquals(Optional.of("bronze"), SpecLoader.load(dir).database());
  }

  @Test
  void yamlExtensionIsFound() throws IOException {
    Path specFile = write("spark-pipeline.yaml", "name: p\nstorage: st\n");

    PipelineSpec spec = SpecLoader.load(dir);

    assertEquals("p", spec.name());
    assertEquals(specFile.toAbsolutePath().normalize(), spec.specFile());
  }

  @Test
  void bothYmlAndYamlIsAnError() throws IOException {
    write("spark-pipeline.yml", "name: a\nstorage: st\n");
    write("spark-pipeline.yaml", "name: b\nstorage: st\n");

    SluiceException e = loadFails();

    assertEquals("AMBIGUOUS_SPEC", e.errorClass());
    assertTrue(e.getMessage().contains("spark-pipeline.yml"), e.getMessage());
    assertTrue(e.getMessage().contains("spark-pipeline.yaml"), e.getMessage());
  }

  @Test
  void missingNameIsNamed() throws IOException {
    write("spark-pipeline.yml", "storage: st\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_MISSING_FIELD", e.errorClass());
    assertTrue(e.userMessage().contains("'name'"), e.userMessage());
    assertTrue(e.userMessage().startsWith("spark-pipeline.yml"), e.userMessage());
    assertTrue(e.userMessage().endsWith("[SPEC_MISSING_FIELD]"), e.userMessage());
  }

  @Test
  void missingStorageIsNamed() throws IOException {
    write("spark-pipeline.yml", "name: p\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_MISSING_FIELD", e.errorClass());
    assertTrue(e.userMessage().contains("'storage'"), e.userMessage());
  }

  @Test
  void unknownFieldIsNamed() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nlibrary:\n  - glob:\n      include: '*.sql'\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_UNKNOWN_FIELD", e.errorClass());
    assertTrue(e.userMessage().contains("'library'"), e.userMessage());
    assertTrue(e.userMessage().startsWith("spark-pipeline.yml"), e.userMessage());
  }

  @Test
  void invalidYamlGivesTheLine() throws IOException {
    write("spark-pipeline.yml", """
        name: p
        storage: st
        catalog: a: b
        """);

    SluiceException e = loadFails();

    assertEquals("SPEC_SYNTAX_ERROR", e.errorClass());
    assertEquals("spark-pipeline.yml", e.origin().source());
    assertEquals(3, e.origin().line());
    assertEquals("spark-pipeline.yml:3:11: not valid YAML: mapping values are not allowed here [SPEC_SYNTAX_ERROR]",
        e.userMessage());
  }

  /** The line is the one holding the offending character, not the last line that parsed. */
  @Test
  void tabIndentationGivesTheLineOfTheTab() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nconfiguration:\n\tspark.sql.shuffle.partitions: 4\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_SYNTAX_ERROR", e.errorClass());
    assertEquals(4, e.origin().line(), e.userMessage());
  }

  @Test
  void invalidYamlInTheYamlFileGivesThatFile() throws IOException {
    write("spark-pipeline.yaml", "name: p\nstorage: [st\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_SYNTAX_ERROR", e.errorClass());
    assertEquals("spark-pipeline.yaml", e.origin().source());
    assertTrue(e.origin().line() >= 2, e.userMessage());
  }

  @Test
  void noSpecFile() {
    SluiceException e = loadFails();

    assertEquals("SPEC_NOT_FOUND", e.errorClass());
    assertTrue(e.getMessage().contains(dir.toAbsolutePath().normalize().toString()), e.getMessage());
  }

  /** As Spark's spark-pipelines: with no folder named, the spec of the nearest folder upwards. */
  @Test
  void findLooksInTheFolderThenInTheFoldersAboveIt() throws IOException {
    write("spark-pipeline.yaml", "name: outer\nstorage: st\n");
    Path nested = Files.createDirectories(dir.resolve("transformations/sub"));

    assertEquals("outer", SpecLoader.find(nested).name());
    assertEquals(dir.toAbsolutePath().normalize(), SpecLoader.find(nested).root());

    Files.writeString(nested.resolve("spark-pipeline.yml"), "name: inner\nstorage: st\n");
    assertEquals("inner", SpecLoader.find(nested).name());
  }

  @Test
  void findWithoutASpecAboveNamesWhereItLooked() throws IOException {
    Path nested = Files.createDirectories(dir.resolve("a/b"));

    SluiceException e = assertThrows(SluiceException.class, () -> SpecLoader.find(nested));

    assertEquals("SPEC_NOT_FOUND", e.errorClass());
    assertTrue(e.getMessage().contains(nested.toAbsolutePath().normalize() + " nor in a folder above it"), e.getMessage());
  }

  /** {@code --spec}: a spec file of any name; relative paths in it start from its own folder, not the working one. */
  @Test
  void loadFileTakesAnyNameAndResolvesFromItsFolder() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("src/pipelines/batch/sql"));
    Path file = Files.writeString(folder.resolve("spark-pipelines.yaml"), "name: batch\nstorage: storage-root\n");

    PipelineSpec spec = SpecLoader.loadFile(file);

    assertEquals(folder.toAbsolutePath().normalize(), spec.root());
    assertEquals(folder.resolve("storage-root").toAbsolutePath().normalize(), spec.storage().localFolder());
    assertEquals("spark-pipelines.yaml", spec.specFile().getFileName().toString());

    SluiceException missing = assertThrows(SluiceException.class, () -> SpecLoader.loadFile(folder.resolve("nope.yaml")));
    assertEquals("SPEC_NOT_FOUND", missing.errorClass());
    assertTrue(missing.getMessage().contains("no spec file " + folder.resolve("nope.yaml").toAbsolutePath()), missing.getMessage());
  }

  @Test
  void databaseAndSchemaTogetherIsAnError() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\ndatabase: a\nschema: b\n");

    assertEquals("SPEC_INVALID", loadFails().errorClass());
  }

  @Test
  void nestedConfigurationValueIsRefused() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nconfiguration:\n  a:\n    b: c\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_INVALID", e.errorClass());
    assertTrue(e.getMessage().contains("'a'"), e.getMessage());
  }

  /** An empty value would otherwise reach Spark as the string "null". */
  @Test
  void configurationWithoutValueIsRefused() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nconfiguration:\n  spark.sql.shuffle.partitions:\n");

    SluiceException e = loadFails();

    assertEquals("SPEC_INVALID", e.errorClass());
    assertTrue(e.getMessage().contains("'spark.sql.shuffle.partitions'"), e.getMessage());
  }

  @Test
  void malformedLibraryEntryIsRefused() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nlibraries:\n  - file: x.sql\n");

    assertEquals("SPEC_INVALID", loadFails().errorClass());
  }

  @Test
  void globWithoutIncludeIsRefused() throws IOException {
    write("spark-pipeline.yml", "name: p\nstorage: st\nlibraries:\n  - glob:\n      exclude: x.sql\n");

    SluiceException e = loadFails();
    assertEquals("SPEC_MISSING_FIELD", e.errorClass());
    assertTrue(e.getMessage().contains("missing field 'include' under glob"), e.getMessage());
  }
}
