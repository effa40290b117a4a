package io.sluice.graph;

import io.sluice.ErrorClass;
import io.sluice.common.SparkErrors;
import org.apache.spark.sql.types.StructType;

/** Parses a dataset's declared column list with Spark's own DDL parser. */
public final class DeclaredSchema {
  private DeclaredSchema() {}

  public static StructType parse(DatasetDefinition dataset) {
    String ddl = dataset.declaredSchema().orElseThrow();
    try {
      return StructType.fromDDL(ddl);
    } catch (Exception e) {
      throw new GraphException(ErrorClass.INVALID_SCHEMA, dataset.origin(),
          "the columns of '" + dataset.name() + "' do not parse: " + SparkErrors.firstLine(e), e);
    }
  }
}
