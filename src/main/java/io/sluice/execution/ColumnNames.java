package io.sluice.execution;

import io.sluice.common.Identifiers;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/** References to columns by their exact names, which may hold dots, spaces or backquotes. */
public final class ColumnNames {
  private ColumnNames() {}

  public static Column col(String name) {
    return functions.col(Identifiers.quote(name));
  }

  /** A column of an aliased DataFrame, or a field of a struct column: {@code alias.`name`}. */
  public static Column col(String alias, String name) {
    return functions.col(alias + "." + Identifiers.quote(name));
  }

  public static Column[] cols(List<String> names) {
    return names.stream().map(ColumnNames::col).toArray(Column[]::new);
  }
}
