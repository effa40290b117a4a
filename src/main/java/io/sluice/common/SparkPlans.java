package io.sluice.common;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/** The few bridges between DataFrames and Catalyst plans that Sluice needs (classic Spark only). */
public final class SparkPlans {
  private SparkPlans() {}

  public static LogicalPlan logicalPlan(Dataset<Row> df) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df).logicalPlan();
  }

  public static Dataset<Row> ofRows(SparkSession spark, LogicalPlan plan) {
    return org.apache.spark.sql.classic.Dataset.ofRows((org.apache.spark.sql.classic.SparkSession) spark, plan);
  }

  /** An empty DataFrame with this schema, batch or streaming: a stand-in for analysis. */
  public static Dataset<Row> empty(SparkSession spark, StructType schema, boolean streaming) {
    List<Attribute> attributes = List.copyOf(CollectionConverters.asJava(DataTypeUtils.toAttributes(schema)));
    LocalRelation relation = new LocalRelation(
        CollectionConverters.asScala(attributes).toList(),
        scala.collection.immutable.List$.MODULE$.empty(),
        streaming,
        Option.empty());
    return ofRows(spark, relation);
  }

  public static List<String> parseName(SparkSession spark, String name) {
    try {
      return CollectionConverters.asJava(
          ((org.apache.spark.sql.classic.SparkSession) spark).sessionState().sqlParser().parseMultipartIdentifier(name));
    } catch (org.apache.spark.sql.catalyst.parser.ParseException e) {
      throw new IllegalArgumentException("not a table name: " + name, e);
    }
  }
}
