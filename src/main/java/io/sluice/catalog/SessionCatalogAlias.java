package io.sluice.catalog;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.DelegatingCatalogExtension;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A second name for the session catalog. With
 * {@code spark.sql.catalog.samples = io.sluice.catalog.SessionCatalogAlias}, the table
 * {@code samples.wanderbricks.payments} is the session catalog's {@code wanderbricks.payments}:
 * how SQL written for a three-level catalog (Unity Catalog's sample data) runs unchanged
 * on a laptop's embedded metastore.
 */
public final class SessionCatalogAlias extends DelegatingCatalogExtension {
  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    super.initialize(name, options);
    setDelegateCatalog(((org.apache.spark.sql.classic.SparkSession) SparkSession.active())
        .sessionState().catalogManager().v2SessionCatalog());
  }
}
