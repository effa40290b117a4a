package io.sluice.delta;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.commands.DeletionVectorBitmapGenerator;
import org.apache.spark.sql.delta.commands.DeletionVectorData;
import org.apache.spark.sql.delta.commands.DeletionVectorResult;
import org.apache.spark.sql.delta.commands.DeletionVectorWriter;
import org.apache.spark.sql.delta.deletionvectors.RoaringBitmapArray;
import org.apache.spark.sql.delta.deletionvectors.RoaringBitmapArrayFormat$;
import org.apache.spark.sql.delta.util.DeltaFileOperations;
import org.apache.spark.sql.delta.util.Utils;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The deletion vectors of a keyed commit: the rows that go, as (file, row index), become one
 * bitmap per file, merged with the file's existing deletion vector and stored by Delta's own
 * writer ({@code DeletionVectorWriter}), so the files are Delta's format byte for byte.
 *
 * <p>Delta's DELETE groups the rows by file in a shuffle (with adaptive execution, a Spark job
 * per stage) after joining them with a table of each file's existing vector (a job of its own).
 * A keyed batch removes few rows: each partition of the scan builds its files' bitmaps as it
 * reads, the driver collects those (a bitmap is small: a few bytes per row at most), merges the
 * parts of a file read by several tasks and writes the vectors. One Spark job instead of about
 * four.
 */
final class DeletionVectors {
  private DeletionVectors() {}

  /**
   * Stores the deletion vectors of the rows of {@code going} (columns
   * {@link DeletionVectorBitmapGenerator#FILE_NAME_COL} and {@link DeletionVectorBitmapGenerator#ROW_INDEX_COL})
   * and returns one result per file that loses rows.
   */
  static Seq<DeletionVectorResult> write(SparkSession session, OptimisticTransaction txn, Dataset<Row> going,
      Seq<AddFile> candidates) {
    List<Tuple2<String, byte[]>> parts = going
        .select(col(DeletionVectorBitmapGenerator.FILE_NAME_COL()), col(DeletionVectorBitmapGenerator.ROW_INDEX_COL()))
        .mapPartitions(new PerFile(), Encoders.tuple(Encoders.STRING(), Encoders.BINARY()))
        .collectAsList();
    Map<String, RoaringBitmapArray> bitmaps = new LinkedHashMap<>();
    for (Tuple2<String, byte[]> part : parts) {
      RoaringBitmapArray bitmap = RoaringBitmapArray.readFrom(part._2());
      RoaringBitmapArray merged = bitmaps.putIfAbsent(part._1(), bitmap);
      if (merged != null) {
        merged.merge(bitmap);
      }
    }
    if (bitmaps.isEmpty()) {
      return Scala.seq(List.of());
    }
    String tablePath = txn.deltaLog().dataPath().toString();
    Map<String, AddFile> files = new HashMap<>();
    for (AddFile file : CollectionConverters.asJava(candidates)) {
      files.put(DeltaFileOperations.absolutePath(tablePath, file.path()).toString(), file);
    }
    List<DeletionVectorData> vectors = new ArrayList<>();
    bitmaps.forEach((path, bitmap) -> {
      AddFile file = files.get(DeltaFileOperations.absolutePath(tablePath, path).toString());
      if (file == null) {
        // As Delta's own check: the scan's file path is encoded as the log's paths are.
        throw new IllegalStateException("a row that goes is in " + path + ", which is not a file of the commit's scan");
      }
      Option<String> existing = file.deletionVector() == null ? Option.empty()
          : Option.apply(file.deletionVector().serializeToBase64());
      vectors.add(new DeletionVectorData(path, existing,
          bitmap.serializeAsByteArray(RoaringBitmapArrayFormat$.MODULE$.Portable()), bitmap.cardinality()));
    });
    scala.collection.Iterator<DeletionVectorResult> stored = DeletionVectorWriter.createMapperToStoreDeletionVectors(
            session, txn.deltaLog().newDeltaHadoopConf(), txn.deltaLog().dataPath(), Utils.getRandomPrefixLength(txn.metadata()))
        .apply(CollectionConverters.asScala(vectors.iterator()));
    return stored.toSeq();
  }

  /** One task's bitmaps: each file it read rows of, with the indexes of those rows. */
  private static final class PerFile implements MapPartitionsFunction<Row, Tuple2<String, byte[]>> {
    @Override
    public Iterator<Tuple2<String, byte[]>> call(Iterator<Row> rows) {
      Map<String, RoaringBitmapArray> bitmaps = new HashMap<>();
      while (rows.hasNext()) {
        Row row = rows.next();
        bitmaps.computeIfAbsent(row.getString(0), path -> new RoaringBitmapArray()).add(row.getLong(1));
      }
      List<Tuple2<String, byte[]>> parts = new ArrayList<>();
      bitmaps.forEach((path, bitmap) -> parts.add(new Tuple2<>(path,
          bitmap.serializeAsByteArray(RoaringBitmapArrayFormat$.MODULE$.Portable()))));
      return parts.iterator();
    }
  }
}
