package io.sluice.testsupport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The reference for AUTO CDC (SEMANTICS §4): applies change events one key at a time, in
 * sequence order, the slow and obvious way. Rows come out as Spark prints them, sorted.
 */
public final class CdcModel {
  /** One change: an upsert of (name, city), or a delete. */
  public record Event(int key, int seq, boolean delete, String name, String city) {
    public String json() {
      return "{\"id\": " + key + ", \"name\": " + quote(name) + ", \"city\": " + quote(city)
          + ", \"op\": \"" + (delete ? "DELETE" : "UPSERT") + "\", \"seq\": " + seq + "}";
    }

    private static String quote(String value) {
      return value == null ? "null" : "\"" + value + "\"";
    }
  }

  private CdcModel() {}

  /** SCD type 1: per key, the last event, if it is an upsert. */
  public static List<String> scd1(List<Event> events) {
    List<String> rows = new ArrayList<>();
    byKey(events).forEach((key, history) -> {
      Event last = history.get(history.size() - 1);
      if (!last.delete()) {
        rows.add("[" + key + "," + last.name() + "," + last.city() + "]");
      }
    });
    return rows.stream().sorted().toList();
  }

  /** SCD type 2, every column tracked: [key,name,city,__START_AT,__END_AT]. */
  public static List<String> scd2(List<Event> events) {
    List<String> rows = new ArrayList<>();
    byKey(events).forEach((key, history) -> {
      Event open = null;
      int openedAt = 0;
      for (Event event : history) {
        boolean changes = open == null || !Objects.equals(open.name(), event.name())
            || !Objects.equals(open.city(), event.city());
        if (event.delete() || changes) {
          if (open != null) {
            rows.add("[" + key + "," + open.name() + "," + open.city() + "," + openedAt + "," + event.seq() + "]");
            open = null;
          }
          if (!event.delete()) {
            open = event;
            openedAt = event.seq();
          }
        }
      }
      if (open != null) {
        rows.add("[" + key + "," + open.name() + "," + open.city() + "," + openedAt + ",null]");
      }
    });
    return rows.stream().sorted().toList();
  }

  /** Each key's events in sequence order, one per sequence: a delete wins a tie with an upsert. */
  private static Map<Integer, List<Event>> byKey(List<Event> events) {
    Map<Integer, List<Event>> result = new TreeMap<>();
    events.stream().collect(Collectors.groupingBy(Event::key)).forEach((key, all) -> {
      Map<Integer, Event> bySeq = new TreeMap<>();
      for (Event event : all) {
        bySeq.merge(event.seq(), event, (a, b) -> a.delete() ? a : b);
      }
      List<Event> history = new ArrayList<>(bySeq.values());
      history.sort(Comparator.comparingInt(Event::seq));
      result.put(key, history);
    });
    return result;
  }
}
