package io.sluice.storage;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.session.ServiceCheck;
import io.sluice.spec.PipelineSpec;
import io.sluice.spec.Storage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Before a command starts Spark: remote storage can be read with the credentials the settings
 * give. A wrong key, a bucket that does not exist or an endpoint that does not answer is one
 * line naming the setting to fix, in seconds, before any executor starts or anything is written.
 */
public final class StorageCheck {
  private StorageCheck() {}

  public static void verify(PipelineSpec spec) {
    Storage storage = spec.storage();
    if (storage.isLocal()) {
      return;
    }
    URI root = storage.uri().resolve("/");
    AwsSdkLog.startQuietly();
    // Hadoop's settings as Spark gives them to its file systems: spark.hadoop.* without the prefix.
    Configuration conf = new Configuration();
    ServiceCheck.settings(spec).forEach((key, value) -> {
      if (key.startsWith("spark.hadoop.")) {
        conf.set(key.substring("spark.hadoop.".length()), value);
      }
    });
    String bucket = storage.uri().getHost();
    Optional<String> endpoint = "s3a".equals(storage.uri().getScheme()) ? endpoint(conf, bucket) : Optional.empty();
    endpoint.ifPresent(address -> {
      if (!ServiceCheck.answers(address)) {
        throw unreachable(storage, "its endpoint " + address + " does not answer (waited "
            + ServiceCheck.WAIT.toSeconds() + " s); check spark.hadoop.fs.s3a.endpoint");
      }
    });
    // A file system of its own, closed after: the cached one is Spark's to make with its settings.
    try (FileSystem fs = FileSystem.newInstance(root, conf)) {
      // A look at storage's own path: one small request, which meets the keys and the bucket.
      fs.exists(new Path(storage.uri()));
    } catch (AccessDeniedException e) {
      throw unreachable(storage, "access denied; check the keys (spark.hadoop.fs.s3a.access.key and"
          + " spark.hadoop.fs.s3a.secret.key, or the machine's credentials)");
    } catch (IOException e) {
      // S3A's UnknownStoreException (no such bucket) is in hadoop-aws, a runtime-only jar.
      if (e.getClass().getSimpleName().equals("UnknownStoreException")) {
        throw unreachable(storage, "the bucket '" + bucket + "' does not exist");
      }
      throw unreachable(storage, e.getMessage().lines().findFirst().orElse(e.getClass().getSimpleName()));
    }
  }

  private static SluiceException unreachable(Storage storage, String reason) {
    return new SluiceException(ErrorClass.STORAGE_UNREACHABLE, "cannot read the pipeline's storage " + storage + ": " + reason);
  }

  /** The S3 endpoint the settings give for {@code bucket}, as host:port; none for AWS's own. */
  private static Optional<String> endpoint(Configuration conf, String bucket) {
    String endpoint = conf.get("fs.s3a.bucket." + bucket + ".endpoint", conf.get("fs.s3a.endpoint", ""));
    if (endpoint.isBlank()) {
      return Optional.empty();
    }
    URI uri = URI.create(endpoint.contains("://") ? endpoint : "https://" + endpoint);
    int port = uri.getPort() >= 0 ? uri.getPort() : "http".equals(uri.getScheme()) ? 80 : 443;
    return Optional.of(uri.getHost() + ":" + port);
  }
}
