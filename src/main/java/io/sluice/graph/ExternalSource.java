package io.sluice.graph;

import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * Something a flow reads from outside the pipeline, found in its analysed query.
 *
 * @param label how {@code sluice graph} names it: {@code table wanderbricks.payments},
 *     {@code json files /abs/landing}, {@code kafka topic orders}
 * @param files for files ({@code read_files} or a file stream): how they are read; empty otherwise
 */
public record ExternalSource(String label, Optional<Files> files) {
  /**
   * Files read by a flow.
   *
   * @param format Spark's short name of the format, lower case: {@code json}, {@code csv}, {@code parquet}
   * @param location the folder or file read: a local path, or a URI for other file systems
   * @param options the reader's options (e.g. {@code header}), as the query gave them
   * @param schema the columns the reader parses each file into
   */
  public record Files(String format, String location, Map<String, String> options, StructType schema) {
    public Files {
      options = Map.copyOf(options);
    }
  }
}
