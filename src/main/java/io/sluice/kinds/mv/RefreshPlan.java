package io.sluice.kinds.mv;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How one refresh of a view goes: the technique chosen, every technique weighed, what each input
 * did since the last refresh, the query's change when it was derived, the view's partitions the
 * change touches when they were listed, and the state the refresh commits.
 *
 * @param stateFrom the refresh whose group state a merge starts from, if the view was refreshed before
 */
record RefreshPlan(Technique technique, List<TechniqueInfo> techniques, List<InputChange> changes,
    Optional<ChangePlan> change, Optional<ChangedPartitions> partitions, Optional<Long> stateFrom, RefreshState next) {
  RefreshPlan {
    techniques = List.copyOf(techniques);
    changes = List.copyOf(changes);
  }

  /**
   * The first reason a full recompute was needed, if the plan is one: of the incremental technique
   * that came nearest (the fewest issues; of those, the most general), so that a GROUP BY's reason
   * is not that it aggregates.
   */
  Optional<IncrementalizationIssue> firstReason() {
    if (technique != Technique.COMPLETE_RECOMPUTE) {
      return Optional.empty();
    }
    // The reason of the technique nearest to applying, rather one the query's form allows.
    return techniques.stream().filter(t -> t.technique().incremental())
        .min(Comparator.<TechniqueInfo>comparingInt(t -> t.issues().size())
            .thenComparing(t -> t.issues().stream().anyMatch(RefreshPlan::ofTheQuery))
            .thenComparing(t -> t.technique().ordinal(), Comparator.reverseOrder()))
        .flatMap(t -> t.issues().stream().findFirst());
  }

  /** Whether {@code issue} is the view's form (its query, what it keeps), which no change of the inputs lifts. */
  private static boolean ofTheQuery(IncrementalizationIssue issue) {
    return Set.of(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, IncrementalizationIssue.AGGREGATE_NOT_SUPPORTED,
        IncrementalizationIssue.GROUP_STATE_KEPT, IncrementalizationIssue.VIEW_KEEPS_NO_STATE).contains(issue.type());
  }

  /**
   * Whether a view under {@code REFRESH POLICY INCREMENTAL STRICT} may take this plan: any but a
   * full recompute forced by its inputs. A view never refreshed, whose definition changed, or
   * whose table was written by something else has no rows to refresh from, one whose group state
   * is missing nothing to merge into: it is computed afresh.
   */
  boolean strictAllows() {
    return technique != Technique.COMPLETE_RECOMPUTE || firstReason().map(IncrementalizationIssue::type)
        .filter(type -> type.equals(IncrementalizationIssue.NO_PREVIOUS_REFRESH)
            || type.equals(IncrementalizationIssue.DEFINITION_CHANGED)
            || type.equals(IncrementalizationIssue.VIEW_CHANGED_OUTSIDE_REFRESH)
            || type.equals(IncrementalizationIssue.STATE_NOT_KEPT)).isPresent();
  }

  private String changedNames() {
    return String.join(", ", changes.stream().filter(c -> c.kind() != InputChange.Kind.UNCHANGED).map(c -> c.input().name()).toList());
  }

  /** The planning event's {@code details}, in Lakeflow's shape. */
  Map<String, Object> details() {
    Map<String, Object> planning = new LinkedHashMap<>();
    planning.put("technique_information", techniques.stream().map(TechniqueInfo::details).toList());
    planning.put("source_table_information", changes.stream().map(change -> {
      Map<String, Object> source = new LinkedHashMap<>();
      source.put("table_name", change.input().name());
      source.put("from_version", change.fromVersion());
      source.put("to_version", change.input().version());
      source.put("change", change.kind().name());
      if (change.kind() == InputChange.Kind.APPENDED) {
        source.put("appended_rows", change.appendedRows());
      }
      if (change.kind() != InputChange.Kind.UNCHANGED) {
        source.put("changed_bytes", change.changedBytes());
      }
      return source;
    }).toList());
    return Map.of("planning_information", planning);
  }

  /** One line for the console and the event's message: the technique and why. */
  String summary() {
    return switch (technique) {
      case NO_OP -> "refresh: NO_OP, no input changed since the last refresh";
      case COMPLETE_RECOMPUTE -> "refresh: COMPLETE_RECOMPUTE" + firstReason().map(i -> ", " + i.reason()).orElse("");
      case APPEND_ONLY, GROUP_AGGREGATE -> {
        if (changes.stream().anyMatch(c -> c.kind() == InputChange.Kind.CHANGED)) {
          yield changedBytes();
        }
        long rows = changes.stream().mapToLong(InputChange::appendedRows).sum();
        yield String.format(Locale.ROOT, "refresh: %s, %,d %s appended to %s%s", technique, rows, rows == 1 ? "row" : "rows",
            changedNames(), next.stateBehind().isPresent() ? ", merged into the view's rows (its group state follows later)" : "");
      }
      case PARTITION_OVERWRITE -> {
        int count = changes.stream().mapToInt(c -> c.partitions().size()).sum();
        yield String.format(Locale.ROOT, "refresh: %s, %,d %s of %s changed", technique, count,
            count == 1 ? "partition" : "partitions", changedNames());
      }
      default -> changedBytes();
    };
  }

  private String changedBytes() {
    return String.format(Locale.ROOT, "refresh: %s, %,d bytes of changes to %s", technique,
        changes.stream().mapToLong(InputChange::changedBytes).sum(), changedNames());
  }
}
