package io.sluice.delta;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Sluice's rules in a Spark session ({@code spark.sql.extensions}, listed before Delta's so that
 * its rules run first): {@link ChecksumScans}.
 */
public final class SluiceSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectPreCBORule(new AbstractFunction1<>() {
      @Override
      public ChecksumScans apply(org.apache.spark.sql.SparkSession session) {
        return new ChecksumScans(session);
      }
    });
    return BoxedUnit.UNIT;
  }
}
