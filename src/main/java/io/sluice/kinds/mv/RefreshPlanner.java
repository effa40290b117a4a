package io.sluice.kinds.mv;

import io.sluice.common.SparkErrors;
import io.sluice.graph.RefreshPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Chooses how one refresh of a view goes (docs/sql.md, "How a materialized view refreshes").
 * Every technique is weighed: those whose conditions fail are not applicable, with the reasons;
 * of the others the cheapest is chosen, by the bytes each would read and write. Under the
 * {@code AUTO} policy a change larger than {@value #CHANGE_SHARE_PERCENT}% of its inputs goes to a
 * full recompute, which then costs about as much and leaves a compact table; for a view whose
 * groups merge, a change larger than {@value #MERGE_SHARE_PERCENT}%: its full recompute writes its
 * group state as well.
 */
final class RefreshPlanner {
  static final int CHANGE_SHARE_PERCENT = 30;
  /**
   * {@code bench mv} at 10,000,000 rows: with a third of the input appended, merging the groups
   * took 0.53x the plain query, the full recompute that writes the group state too 1.36x.
   */
  static final int MERGE_SHARE_PERCENT = 50;
  /**
   * How far, in appended bytes against the inputs', a view's group state may fall behind its rows
   * under {@code AUTO} before a merge catches it up: what the refresh that catches up reads again.
   */
  static final int STATE_BEHIND_PERCENT = 10;
  /**
   * How long a view's group state may stay behind its rows: the inputs' files appended since must
   * still be there to catch up from, which {@code VACUUM} keeps for 7 days by default.
   */
  static final long STATE_BEHIND_MILLIS = Duration.ofHours(1).toMillis();

  /**
   * What the planner knows of the view itself.
   *
   * @param dropsRows why its groups cannot be merged from its rows: an expectation drops rows
   * @param notKeyed why its rows cannot be replaced in place, if they cannot
   * @param stateless why the state its groups merge from is not the one of its last refresh, if it is not
   * @param stateBytes the bytes of that state
   * @param mergesFromView whether it keeps a group state and its groups merge appends from its own
   *     rows ({@link GroupColumns#mergesFromView}): the state is then left behind until a refresh needs it
   * @param stateKept why its groups are not recomputed alone: it keeps a group state, which only a merge keeps up with
   * @param partitioned whether it is {@code PARTITIONED BY} columns: only then is {@link Technique#PARTITION_OVERWRITE} weighed
   * @param unpartitioned why its partitions are not made of its input's, if they are not
   */
  record View(QueryShape shape, String definition, RefreshPolicy policy, Optional<IncrementalizationIssue> dropsRows,
      Optional<IncrementalizationIssue> notKeyed, Optional<IncrementalizationIssue> stateless, long stateBytes,
      boolean mergesFromView, Optional<IncrementalizationIssue> stateKept, boolean partitioned,
      Optional<IncrementalizationIssue> unpartitioned, long bytes) {}

  private RefreshPlanner() {}

  /**
   * @param derive the query's change ({@link ChangePlan}) after the inputs' changes: asked only when
   *     some input changed in a way that can be read, and the query's change can be derived
   * @param partition the view's partitions the inputs' changes touch: asked only when some input
   *     changed and the view is partitioned as its input
   * @param now the time of planning, epoch milliseconds
   */
  static RefreshPlan plan(View view, List<DeltaInput> inputs, RefreshState.Previous previous, long now,
      Function<List<InputChange>, ChangePlan> derive, Function<List<InputChange>, ChangedPartitions.Listed> partition) {
    List<IncrementalizationIssue> blocking = new ArrayList<>();
    view.shape().variable().ifPresent(blocking::add);
    previous.whyNone().ifPresent(blocking::add);
    Optional<RefreshState> last = previous.state();
    if (last.isPresent() && !last.get().definition().equals(view.definition())) {
      blocking.add(new IncrementalizationIssue(IncrementalizationIssue.DEFINITION_CHANGED, "the view's query, columns,"
          + " expectations or result-changing settings (ANSI mode, time zone) changed since its last refresh"));
    }
    List<InputChange> changes = blocking.isEmpty() ? since(inputs, last.get().inputs(), blocking) : List.of();
    boolean changed = changes.stream().anyMatch(c -> c.kind() != InputChange.Kind.UNCHANGED);
    boolean retracting = changes.stream().anyMatch(c -> c.kind() == InputChange.Kind.CHANGED);
    long inputBytes = inputs.stream().mapToLong(DeltaInput::bytes).sum();
    long changedBytes = changes.stream().mapToLong(InputChange::changedBytes).sum();
    // Appends merge into the view's rows alone while the state misses little; a change that takes
    // rows away, or more appends, merge into the state, which then follows the inputs from where it stands.
    Optional<RefreshState.StateBehind> behind = last.flatMap(RefreshState::stateBehind);
    long behindBytes = behind.map(RefreshState.StateBehind::appendedBytes).orElse(0L) + changedBytes;
    boolean stateLeftBehind = view.mergesFromView() && changed && !retracting
        && (view.policy() != RefreshPolicy.AUTO || behindBytes * 100 <= inputBytes * STATE_BEHIND_PERCENT)
        && behind.map(b -> now - b.since() <= STATE_BEHIND_MILLIS).orElse(true);
    if (changed && !stateLeftBehind && behind.isPresent() && blocking.isEmpty()) {
      changes = since(inputs, behind.get().inputs(), blocking);
      changedBytes = changes.stream().mapToLong(InputChange::changedBytes).sum();
    }
    Costs costs = new Costs(view, changed, changedBytes, inputBytes);

    List<TechniqueInfo> weighed = new ArrayList<>();
    List<IncrementalizationIssue> noOp = new ArrayList<>(blocking);
    if (changed) {
      noOp.add(new IncrementalizationIssue(IncrementalizationIssue.INPUTS_CHANGED, "an input changed since the last refresh"));
    }
    weighed.add(info(Technique.NO_OP, noOp, 0));
    List<IncrementalizationIssue> appendsOnly = issues(blocking, changes, InputChange::notAnAppend);
    List<IncrementalizationIssue> readable = issues(blocking, changes, InputChange::unreadable);
    QueryShape shape = view.shape();
    Optional<ChangePlan> derived = Optional.empty();
    Optional<IncrementalizationIssue> underived = Optional.empty();
    // A change too large for any technique that derives it is not derived: deriving reads it.
    boolean worthDeriving = changed && !costs.tooLarge(CHANGE_SHARE_PERCENT);
    if (worthDeriving && readable.isEmpty()
        && Stream.of(shape.appendOnly(), shape.rowBased(), shape.windowFunction()).anyMatch(Optional::isEmpty)) {
      try {
        derived = Optional.of(derive.apply(changes));
      } catch (Exception e) { // Spark's job failures are checked exceptions, thrown undeclared
        // The versions the last refresh read, which a join or window reads again, may be gone (VACUUM).
        underived = Optional.of(new IncrementalizationIssue(IncrementalizationIssue.INPUT_VERSIONS_GONE,
            "the inputs as the last refresh read them cannot be read again (" + SparkErrors.firstLine(e) + ")"));
      }
    }
    Optional<ChangePlan> change = derived;
    // A join or window reads whole what the change pairs with (a join's other side, a touched window's tables).
    long beside = change.map(ChangePlan::bytesBeside).orElse(0L);
    Optional<IncrementalizationIssue> retracts = underived.or(() -> change.flatMap(ChangePlan::retraction)
        .map(why -> new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED, why)));
    weighed.add(costs.incremental(Technique.APPEND_ONLY, appendsOnly, Stream.of(shape.appendOnly(), retracts),
        changedBytes + beside));
    weighed.add(costs.incremental(Technique.ROW_BASED, readable, Stream.of(shape.rowBased(), underived, view.notKeyed()),
        changedBytes + beside + view.bytes() / 2));
    // Costs are the bytes read and written, estimated: a replacement of some rows reads the view's
    // keys (half its bytes, say), a merge of groups their state too. A group that loses its min or
    // max is recomputed from the input's rows of its key: the whole input read, but only those
    // groups aggregated and written (half, say; bench mv: a merge that recomputed such groups after
    // a delete took 1.17x the plain query, the full recompute with the state 1.60x). Recomputing
    // the touched groups reads the whole input as a full recompute does, and more: only an
    // INCREMENTAL policy takes it.
    boolean extremes = shape.groups() != null && shape.groups().hasExtremes();
    weighed.add(costs.incremental(Technique.GROUP_AGGREGATE, readable,
        Stream.of(shape.groupAggregate(), view.dropsRows(), view.notKeyed(), view.stateless()),
        changedBytes + view.bytes() / 2 + (stateLeftBehind ? 0 : view.stateBytes())
            + (retracting && extremes ? inputBytes / 2 : 0),
        MERGE_SHARE_PERCENT));
    weighed.add(costs.incremental(Technique.GENERIC_AGGREGATE, readable,
        Stream.of(shape.genericAggregate(), view.notKeyed(), view.stateKept()), inputBytes + changedBytes + view.bytes()));
    weighed.add(costs.incremental(Technique.WINDOW_FUNCTION, readable,
        Stream.of(shape.windowFunction(), underived, view.notKeyed()),
        changedBytes + beside + view.bytes() / 2));
    Optional<ChangedPartitions> partitions = Optional.empty();
    if (view.partitioned()) {
      Optional<IncrementalizationIssue> unpartitioned = view.unpartitioned();
      if (worthDeriving && blocking.isEmpty() && unpartitioned.isEmpty()) {
        try {
          ChangedPartitions.Listed listed = partition.apply(changes);
          partitions = listed.partitions();
          unpartitioned = listed.whyNot();
        } catch (Exception e) { // Spark's job failures are checked exceptions, thrown undeclared
          unpartitioned = Optional.of(new IncrementalizationIssue(IncrementalizationIssue.OPERATOR_NOT_SUPPORTED,
              "the changed partitions cannot be planned (" + SparkErrors.firstLine(e) + ")"));
        }
      }
      // Recomputing the changed partitions reads them whole, and replaces the view's share of the same.
      long partitionBytes = partitions.map(ChangedPartitions::bytesRead).orElse(0L);
      weighed.add(costs.incremental(Technique.PARTITION_OVERWRITE, blocking, Stream.of(unpartitioned, view.notKeyed()),
          partitionBytes + view.bytes() * partitionBytes / Math.max(1, inputBytes)));
    }
    // A view that keeps a group state writes it too.
    weighed.add(info(Technique.COMPLETE_RECOMPUTE, List.of(), inputBytes + view.bytes() + view.stateBytes()));

    // INCREMENTAL takes any technique but a full recompute when one applies, whatever the costs say.
    boolean avoidRecompute = view.policy().requiresIncremental()
        && weighed.stream().anyMatch(t -> t.applicable() && t.technique() != Technique.COMPLETE_RECOMPUTE);
    TechniqueInfo chosen = weighed.stream().filter(TechniqueInfo::applicable)
        .filter(t -> !avoidRecompute || t.technique() != Technique.COMPLETE_RECOMPUTE)
        .min(Comparator.<TechniqueInfo>comparingLong(t -> t.cost().orElse(Long.MAX_VALUE))
            // At equal cost a full recompute, which leaves the view's files compact.
            .thenComparing(t -> t.technique() != Technique.COMPLETE_RECOMPUTE)).orElseThrow();
    List<TechniqueInfo> techniques = weighed.stream().map(t -> t == chosen ? t.asChosen() : t).toList();
    Map<String, Long> versions = new LinkedHashMap<>();
    inputs.forEach(input -> versions.put(input.key(), input.version()));
    long number = last.map(s -> s.refresh() + 1).orElse(0L);
    Optional<RefreshState.StateBehind> stateAfter = chosen.technique() == Technique.GROUP_AGGREGATE && stateLeftBehind
        ? last.map(s -> s.state(now)).map(s -> new RefreshState.StateBehind(s.refresh(), s.inputs(), behindBytes, s.since()))
        : Optional.empty();
    return new RefreshPlan(chosen.technique(), techniques, changes, change, partitions,
        last.map(RefreshState::stateRefresh), new RefreshState(number, view.definition(), versions, stateAfter));
  }

  /** Each input's change since {@code versions}; an input not among them blocks every incremental technique. */
  private static List<InputChange> since(List<DeltaInput> inputs, Map<String, Long> versions,
      List<IncrementalizationIssue> blocking) {
    List<InputChange> changes = new ArrayList<>();
    for (DeltaInput input : inputs) {
      Long from = versions.get(input.key());
      if (from == null) {
        blocking.add(new IncrementalizationIssue(IncrementalizationIssue.DEFINITION_CHANGED,
            input.name() + " was not an input of the last refresh"));
      } else {
        changes.add(InputChange.since(input, from));
      }
    }
    return changes;
  }

  /** The issues that stop every incremental technique, then those of the inputs' changes that stop this one. */
  private static List<IncrementalizationIssue> issues(List<IncrementalizationIssue> blocking, List<InputChange> changes,
      Function<InputChange, Optional<IncrementalizationIssue>> ofChange) {
    List<IncrementalizationIssue> issues = new ArrayList<>(blocking);
    changes.forEach(change -> ofChange.apply(change).ifPresent(issues::add));
    return issues;
  }

  /** What an incremental technique must also meet: the policy, a change to follow, a change small enough. */
  private record Costs(View view, boolean changed, long changedBytes, long inputBytes) {
    TechniqueInfo incremental(Technique technique, List<IncrementalizationIssue> ofInputs,
        Stream<Optional<IncrementalizationIssue>> ofView, long cost) {
      return incremental(technique, ofInputs, ofView, cost, CHANGE_SHARE_PERCENT);
    }

    /** As above, the change taken up to {@code sharePercent}% of the inputs under {@code AUTO}. */
    TechniqueInfo incremental(Technique technique, List<IncrementalizationIssue> ofInputs,
        Stream<Optional<IncrementalizationIssue>> ofView, long cost, int sharePercent) {
      List<IncrementalizationIssue> issues = new ArrayList<>(ofInputs);
      ofView.flatMap(Optional::stream).findFirst().ifPresent(issues::add);
      if (view.policy() == RefreshPolicy.FULL) {
        issues.add(new IncrementalizationIssue(IncrementalizationIssue.REFRESH_POLICY_FULL, "the view's REFRESH POLICY is FULL"));
      }
      if (!changed && issues.isEmpty()) {
        issues.add(new IncrementalizationIssue(IncrementalizationIssue.INPUTS_UNCHANGED, "no input changed"));
      }
      if (tooLarge(sharePercent)) {
        issues.add(new IncrementalizationIssue(IncrementalizationIssue.CHANGESET_SIZE_THRESHOLD_EXCEEDED, String.format(
            "the change (%,d bytes) is more than %d%% of the inputs (%,d bytes)", changedBytes, sharePercent, inputBytes)));
      }
      return info(technique, issues, cost);
    }

    /** Whether the AUTO policy takes a full recompute rather than a technique that takes {@code sharePercent}% at most. */
    boolean tooLarge(int sharePercent) {
      return view.policy() == RefreshPolicy.AUTO && changedBytes * 100 > inputBytes * sharePercent;
    }
  }

  private static TechniqueInfo info(Technique technique, List<IncrementalizationIssue> issues, long cost) {
    return new TechniqueInfo(technique, issues.isEmpty(), false, OptionalLong.of(cost), issues);
  }
}
