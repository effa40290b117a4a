package io.sluice.delta;

import java.util.List;
import java.util.Map;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** Java collections as the Scala ones Delta's internal methods take. */
public final class Scala {
  private Scala() {}

  public static <T> Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toSeq();
  }

  static <K, V> scala.collection.immutable.Map<K, V> map(Map<K, V> map) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
  }
}
