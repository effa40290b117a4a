package io.sluice.session;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFs;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.local.LocalConfigKeys;

/**
 * {@link ForklessLocalFileSystem} for Hadoop's {@code FileContext} API, through which Spark
 * writes streaming checkpoints; it stands where {@code org.apache.hadoop.fs.local.LocalFs} does.
 */
public final class ForklessLocalFs extends ChecksumFs {
  public ForklessLocalFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(new Raw(uri, conf));
  }

  /** As {@code org.apache.hadoop.fs.local.RawLocalFs}, over {@link ForklessLocalFileSystem.Raw}. */
  private static final class Raw extends DelegateToFileSystem {
    Raw(URI uri, Configuration conf) throws IOException, URISyntaxException {
      super(uri, new ForklessLocalFileSystem.Raw(), conf, uri.getScheme(), false);
    }

    @Override
    public int getUriDefaultPort() {
      return -1;
    }

    @Override
    @SuppressWarnings("deprecation")
    public FsServerDefaults getServerDefaults() throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    @Override
    public FsServerDefaults getServerDefaults(Path f) throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    /** Local file systems differ in what names they accept: the operating system decides. */
    @Override
    public boolean isValidName(String src) {
      return true;
    }
  }
}
