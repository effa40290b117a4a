package io.sluice.kinds.mv;

import io.sluice.graph.RefreshPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Chooses how one refresh of a view goes (docs/operations.md, "How a materialized view
 * refreshes"). Every technique is weighed: those whose conditions fail are not applicable, with
 * the reasons; of the others the cheapest is chosen, by the bytes each would read. Under the
 * {@code AUTO} policy a change larger than {@value #CHANGE_SHARE_PERCENT}% of its inputs goes to a
 * full recompute, which then costs about as much and leaves a compact table.
 */
final class RefreshPlanner {
  static final int CHANGE_SHARE_PERCENT = 30;

  /** What the planner knows of the view itself. */
  record View(QueryShape shape, String definition, RefreshPolicy policy, Optional<IncrementalizationIssue> notMergeable,
      long bytes) {}

  private RefreshPlanner() {}

  static RefreshPlan plan(View view, List<DeltaInput> inputs, RefreshState.Previous previous) {
    List<IncrementalizationIssue> blocking = new ArrayList<>();
    view.shape().variable().ifPresent(blocking::add);
    previous.whyNone().ifPresent(blocking::add);
    Optional<RefreshState> last = previous.state();
    if (last.isPresent() && !last.get().definition().equals(view.definition())) {
      blocking.add(new IncrementalizationIssue(IncrementalizationIssue.DEFINITION_CHANGED, "the view's query, columns,"
          + " expectations or result-changing settings (ANSI mode, time zone) changed since its last refresh"));
    }
    List<InputChange> changes = new ArrayList<>();
    if (blocking.isEmpty()) {
      for (DeltaInput input : inputs) {
        Long from = last.get().inputs().get(input.key());
        if (from == null) {
          blocking.add(new IncrementalizationIssue(IncrementalizationIssue.DEFINITION_CHANGED,
              input.name() + " was not an input of the last refresh"));
        } else {
          InputChange change = InputChange.since(input, from);
          changes.add(change);
          change.issue().ifPresent(blocking::add);
        }
      }
    }
    long inputBytes = inputs.stream().mapToLong(DeltaInput::bytes).sum();
    long changedBytes = changes.stream().mapToLong(InputChange::appendedBytes).sum();
    boolean changed = changes.stream().anyMatch(c -> c.kind() != InputChange.Kind.UNCHANGED);

    List<TechniqueInfo> weighed = new ArrayList<>();
    List<IncrementalizationIssue> noOp = new ArrayList<>(blocking);
    if (changed) {
      noOp.add(new IncrementalizationIssue(IncrementalizationIssue.INPUTS_CHANGED, "an input changed since the last refresh"));
    }
    weighed.add(info(Technique.NO_OP, noOp, 0));
    weighed.add(incremental(Technique.APPEND_ONLY, view, blocking, view.shape().appendOnly(), changed, changedBytes,
        inputBytes, changedBytes));
    List<Optional<IncrementalizationIssue>> grouped = List.of(view.shape().groupAggregate(), view.notMergeable());
    weighed.add(incremental(Technique.GROUP_AGGREGATE, view, blocking,
        grouped.stream().flatMap(Optional::stream).findFirst(), changed, changedBytes, inputBytes, changedBytes + view.bytes()));
    weighed.add(info(Technique.COMPLETE_RECOMPUTE, List.of(), inputBytes));

    // INCREMENTAL takes any technique but a full recompute when one applies, whatever the costs say.
    boolean avoidRecompute = view.policy().requiresIncremental()
        && weighed.stream().anyMatch(t -> t.applicable() && t.technique() != Technique.COMPLETE_RECOMPUTE);
    TechniqueInfo chosen = weighed.stream().filter(TechniqueInfo::applicable)
        .filter(t -> !avoidRecompute || t.technique() != Technique.COMPLETE_RECOMPUTE)
        .min((a, b) -> Long.compare(a.cost().orElse(Long.MAX_VALUE), b.cost().orElse(Long.MAX_VALUE))).orElseThrow();
    List<TechniqueInfo> techniques = weighed.stream().map(t -> t == chosen ? t.asChosen() : t).toList();
    Map<String, Long> versions = new LinkedHashMap<>();
    inputs.forEach(input -> versions.put(input.key(), input.version()));
    long number = last.map(s -> s.refresh() + 1).orElse(0L);
    return new RefreshPlan(chosen.technique(), techniques, changes, new RefreshState(number, view.definition(), versions));
  }

  private static TechniqueInfo incremental(Technique technique, View view, List<IncrementalizationIssue> blocking,
      Optional<IncrementalizationIssue> shape, boolean changed, long changedBytes, long inputBytes, long cost) {
    List<IncrementalizationIssue> issues = new ArrayList<>(blocking);
    shape.ifPresent(issues::add);
    if (view.policy() == RefreshPolicy.FULL) {
      issues.add(new IncrementalizationIssue(IncrementalizationIssue.REFRESH_POLICY_FULL, "the view's REFRESH POLICY is FULL"));
    }
    if (!changed && issues.isEmpty()) {
      issues.add(new IncrementalizationIssue(IncrementalizationIssue.INPUTS_UNCHANGED, "no input changed"));
    }
    if (view.policy() == RefreshPolicy.AUTO && changedBytes * 100 > inputBytes * CHANGE_SHARE_PERCENT) {
      issues.add(new IncrementalizationIssue(IncrementalizationIssue.CHANGESET_SIZE_THRESHOLD_EXCEEDED, String.format(
          "the change (%,d bytes) is more than %d%% of the inputs (%,d bytes)", changedBytes, CHANGE_SHARE_PERCENT, inputBytes)));
    }
    return info(technique, issues, cost);
  }

  private static TechniqueInfo info(Technique technique, List<IncrementalizationIssue> issues, long cost) {
    return new TechniqueInfo(technique, issues.isEmpty(), false, OptionalLong.of(cost), issues);
  }
}
