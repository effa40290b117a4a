package io.sluice.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.spec.Storage;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local file system Sluice's sessions use: Hadoop's behaviour, without a process per file. */
class ForklessLocalFileSystemTest {
  @TempDir java.nio.file.Path dir;

  private Configuration conf() {
    Configuration conf = new Configuration(false);
    SparkSessions.embeddedDefaults(Storage.local(dir)).forEach((key, value) -> {
      if (key.startsWith("spark.hadoop.")) {
        conf.set(key.substring("spark.hadoop.".length()), value);
      }
    });
    conf.set("fs.permissions.umask-mode", "022");
    return conf;
  }

  @Test
  void filesAreCreatedWithTheirPermissionsAndLinksStillShowAsLinks() throws Exception {
    FileSystem fs = FileSystem.newInstance(URI.create("file:///"), conf());
    assertInstanceOf(ForklessLocalFileSystem.class, fs);
    Path file = new Path(dir.resolve("a.txt").toUri());
    try (FSDataOutputStream out = fs.create(file, new FsPermission((short) 0640), false, 4096, (short) 1, 1 << 20, null)) {
      out.write("a".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a.txt"))));
    assertTrue(Files.exists(dir.resolve(".a.txt.crc")), "the checksum layer is kept");

    Files.createSymbolicLink(dir.resolve("link"), dir.resolve("a.txt"));
    Path link = new Path(dir.resolve("link").toUri());
    FileSystem hadoops = FileSystem.newInstance(URI.create("file:///"), new Configuration(false));
    for (Path path : new Path[] {link, file}) {
      FileStatus expected = hadoops.getFileLinkStatus(path);
      FileStatus actual = fs.getFileLinkStatus(path);
      assertEquals(List.of(expected.getPath(), expected.isSymlink(), expected.isFile(), expected.getLen()),
          List.of(actual.getPath(), actual.isSymlink(), actual.isFile(), actual.getLen()), "as Hadoop's own shows " + path);
    }
  }

  /**
   * Owner, group and permission of listed files as Hadoop's own status gives them, which runs
   * {@code ls -ld} for each (its status class loads them so); a folder listed for a stream's or
   * {@code list_files}' sake is listed with none.
   */
  @Test
  void listedFilesHaveHadoopsOwnersAndPermissionsWithoutItsStatusClass() throws Exception {
    Files.writeString(dir.resolve("a.json"), "{}");
    Files.setPosixFilePermissions(dir.resolve("a.json"), PosixFilePermissions.fromString("rw-r-----"));
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/b.json"), "{}");
    FileSystem fs = FileSystem.newInstance(URI.create("file:///"), conf());
    FileSystem hadoops = FileSystem.newInstance(URI.create("file:///"), new Configuration(false));
    Path folder = new Path(dir.toUri());

    List<FileStatus> listed = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(folder, true);
    while (files.hasNext()) {
      listed.add(files.next());
    }
    listed.addAll(List.of(fs.listStatus(folder)));
    listed.addAll(List.of(fs.listStatus(new Path(dir.resolve("a.json").toUri()))));
    listed.add(fs.getFileStatus(folder));
    assertEquals(6, listed.size(), listed::toString);
    for (FileStatus status : listed) {
      FileStatus expected = hadoops.getFileStatus(status.getPath());
      assertEquals(List.of(expected.getPermission(), expected.getOwner(), expected.getGroup(), expected.getLen(), expected.isDirectory()),
          List.of(status.getPermission(), status.getOwner(), status.getGroup(), status.getLen(), status.isDirectory()), status.getPath().toString());
      assertFalse(status.getClass().getName().contains("DeprecatedRawLocalFileStatus"), status.getClass().getName());
    }
    assertEquals("rw-r-----", fs.getFileStatus(new Path(dir.resolve("a.json").toUri())).getPermission().toString());
  }

  @Test
  void fileContextRenamesOverAnExistingFile() throws Exception {
    FileContext fc = FileContext.getFileContext(URI.create("file:///"), conf());
    Path from = new Path(dir.resolve("offsets.tmp").toUri());
    Path to = new Path(dir.resolve("offsets").toUri());
    for (Path path : new Path[] {from, to}) {
      try (FSDataOutputStream out = fc.create(path, EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE))) {
        out.write(path.getName().getBytes(StandardCharsets.UTF_8));
      }
    }
    fc.rename(from, to, Options.Rename.OVERWRITE);
    assertFalse(Files.exists(dir.resolve("offsets.tmp")));
    assertEquals("offsets.tmp", Files.readString(dir.resolve("offsets")));
  }
}
