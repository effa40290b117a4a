package io.sluice.session;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.spec.PipelineSpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;

/**
 * Before a session opens: the Spark master and the metastore that the settings name answer,
 * each within {@link #WAIT}. Spark would otherwise retry a master for a minute and a
 * metastore several times before failing with a stack trace; a wrong address should cost a
 * few seconds and one line.
 */
public final class ServiceCheck {
  /** How long a service has to answer. */
  public static final Duration WAIT = Duration.ofSeconds(10);

  private ServiceCheck() {}

  /** Checks the services of {@code spec}'s settings and those given to spark-submit. */
  public static void verify(PipelineSpec spec) {
    verify(settings(spec));
  }

  /** The Spark settings a session of {@code spec} gets: spark-submit's, then the spec's, which win. */
  public static Map<String, String> settings(PipelineSpec spec) {
    Map<String, String> settings = new HashMap<>();
    Arrays.stream(new SparkConf().getAll()).forEach(t -> settings.put(t._1(), t._2()));
    settings.putAll(spec.configuration());
    return settings;
  }

  static void verify(Map<String, String> settings) {
    Optional.ofNullable(settings.get("spark.master")).filter(m -> m.startsWith("spark://")).ifPresent(master -> {
      List<String> addresses = Arrays.asList(master.substring("spark://".length()).split(","));
      if (addresses.stream().noneMatch(ServiceCheck::answers)) {
        throw new SluiceException(ErrorClass.CLUSTER_UNREACHABLE, "the Spark master " + master
            + " does not answer (waited " + WAIT.toSeconds() + " s); start it, or give the master's address in spark.master");
      }
    });
    Optional.ofNullable(settings.get("spark.hadoop.hive.metastore.uris")).filter(u -> !u.isBlank()).ifPresent(uris -> {
      List<String> addresses = new ArrayList<>();
      for (String uri : uris.split(",")) {
        URI parsed = URI.create(uri.trim());
        addresses.add(parsed.getHost() + ":" + parsed.getPort());
      }
      if (addresses.stream().noneMatch(ServiceCheck::answers)) {
        throw new SluiceException(ErrorClass.METASTORE_UNREACHABLE, "the metastore " + uris
            + " does not answer (waited " + WAIT.toSeconds() + " s); start it, or give its address in spark.hadoop.hive.metastore.uris");
      }
    });
  }

  /** Whether {@code host:port} takes a TCP connection within {@link #WAIT}. */
  public static boolean answers(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon < 0) {
      return false;
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon).trim(),
          Integer.parseInt(hostAndPort.substring(colon + 1).trim())), (int) WAIT.toMillis());
      return true;
    } catch (IOException | NumberFormatException e) {
      return false;
    }
  }
}
