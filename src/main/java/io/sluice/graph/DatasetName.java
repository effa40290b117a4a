package io.sluice.graph;

import io.sluice.common.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A fully qualified dataset name. Names compare case-insensitively, as Spark's catalog
 * does by default; {@link #name()} keeps the spelling of the definition.
 */
public record DatasetName(String catalog, String database, String name) {

  /** Qualifies a 1-, 2- or 3-part name with the given defaults. */
  public static DatasetName of(List<String> parts, String defaultCatalog, String defaultDatabase) {
    return switch (parts.size()) {
      case 1 -> new DatasetName(defaultCatalog, defaultDatabase, parts.get(0));
      case 2 -> new DatasetName(defaultCatalog, parts.get(0), parts.get(1));
      case 3 -> new DatasetName(parts.get(0), parts.get(1), parts.get(2));
      default -> throw new IllegalArgumentException("A dataset name has 1 to 3 parts: " + parts);
    };
  }

  /** The name as a key for lookups: lower case, fully qualified. */
  public String key() {
    return (catalog + "." + database + "." + name).toLowerCase(Locale.ROOT);
  }

  /** A quoted, fully qualified identifier for Spark SQL text and readers. */
  public String quoted() {
    return quotedNamespace() + "." + Identifiers.quote(name);
  }

  /** The quoted catalog and database the dataset lives in. */
  public String quotedNamespace() {
    return Identifiers.quote(catalog) + "." + Identifiers.quote(database);
  }

  public List<String> parts() {
    return new ArrayList<>(List.of(catalog, database, name));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DatasetName other && key().equals(other.key());
  }

  @Override
  public int hashCode() {
    return key().hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
