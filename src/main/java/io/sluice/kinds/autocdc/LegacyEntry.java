package io.sluice.kinds.autocdc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Optional;
import java.util.Properties;

/**
 * A snapshot log entry as Sluice wrote it before its versions became typed JSON: a
 * properties file whose version is Java-serialized. Read, so that a checkpoint made then
 * still settles and continues; never written.
 */
final class LegacyEntry {
  private LegacyEntry() {}

  static SnapshotEntry parse(String text) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
      byte[] bytes = Base64.getDecoder().decode(properties.getProperty("serialized"));
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
        return new SnapshotEntry(Long.parseLong(properties.getProperty("number")), in.readObject(),
            Long.parseLong(properties.getProperty("table_version_before")),
            Optional.ofNullable(properties.getProperty("source_fingerprint")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("it holds a version of an unknown class", e);
    }
  }
}
