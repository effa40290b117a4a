package io.sluice.storage;

import io.sluice.ErrorClass;
import io.sluice.SluiceException;
import io.sluice.session.ServiceCheck;
import io.sluice.spec.Storage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * Before an update touches remote storage: its bucket (or file system root) can be read with
 * the credentials given. A wrong key, a bucket that does not exist or an endpoint that does
 * not answer is one line naming the setting to fix, before anything is written.
 */
public final class StorageCheck {
  private StorageCheck() {}

  public static void verify(SparkSession spark, Storage storage) {
    if (storage.isLocal()) {
      return;
    }
    URI root = storage.uri().resolve("/");
    AwsSdkLog.startQuietly();
    Configuration conf = spark.sessionState().newHadoopConf();
    String bucket = storage.uri().getHost();
    endpoint(conf, bucket).ifPresent(endpoint -> {
      if (!ServiceCheck.answers(endpoint)) {
        throw unreachable(storage, "its endpoint " + endpoint + " does not answer (waited "
            + ServiceCheck.WAIT.toSeconds() + " s); check spark.hadoop.fs.s3a.endpoint");
      }
    });
    try {
      FileSystem fs = FileSystem.get(root, conf);
      fs.listStatus(new Path(root));
    } catch (AccessDeniedException e) {
      throw unreachable(storage, "access denied; check the keys (spark.hadoop.fs.s3a.access.key and"
          + " spark.hadoop.fs.s3a.secret.key, or the machine's credentials)");
    } catch (FileNotFoundException e) {
      throw unreachable(storage, "the bucket '" + bucket + "' does not exist");
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
