package io.sluice.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.SluiceException;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A master or metastore that does not answer is one line, at once; one that answers passes. */
class ServiceCheckTest {
  @Test
  void aMasterThatDoesNotAnswerIsNamed() throws IOException {
    int closed = closedPort();

    SluiceException e = assertThrows(SluiceException.class,
        () -> ServiceCheck.verify(Map.of("spark.master", "spark://127.0.0.1:" + closed)));

    assertEquals("CLUSTER_UNREACHABLE", e.errorClass());
    assertTrue(e.getMessage().contains("spark://127.0.0.1:" + closed + " does not answer"), e.getMessage());
  }

  @Test
  void aMetastoreThatDoesNotAnswerIsNamed() throws IOException {
    int closed = closedPort();

    SluiceException e = assertThrows(SluiceException.class,
        () -> ServiceCheck.verify(Map.of("spark.hadoop.hive.metastore.uris", "thrift://127.0.0.1:" + closed)));

    assertEquals("METASTORE_UNREACHABLE", e.errorClass());
    assertTrue(e.getMessage().contains("thrift://127.0.0.1:" + closed), e.getMessage());
  }

  @Test
  void servicesThatAnswerAndLocalMastersPass() throws IOException {
    try (ServerSocket master = new ServerSocket(0); ServerSocket metastore = new ServerSocket(0)) {
      // One of a standby pair answering is enough.
      ServiceCheck.verify(Map.of(
          "spark.master", "spark://127.0.0.1:" + closedPort() + ",127.0.0.1:" + master.getLocalPort(),
          "spark.hadoop.hive.metastore.uris", "thrift://127.0.0.1:" + metastore.getLocalPort()));
    }
    ServiceCheck.verify(Map.of("spark.master", "local[2]"));
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
