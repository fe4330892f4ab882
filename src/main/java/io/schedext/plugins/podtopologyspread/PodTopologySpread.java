package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.RunningTotals;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.kube.Selector;
import io.schedext.plugins.Names;
import io.schedext.plugins.helper.DefaultSelector;
import io.schedext.plugins.helper.Normalize;
import java.util.List;
import java.util.Map;

/**
 * Spreads pods evenly over topology domains per the pod's {@code topologySpreadConstraints} (or the
 * cluster's default constraints when it has none): DoNotSchedule constraints filter nodes whose
 * domain would exceed maxSkew, ScheduleAnyway constraints prefer the least loaded domains.
 * Thread-safe; per-cycle data lives in the cycle state.
 */
public final class PodTopologySpread
    implements PreFilterPlugin,
        PreFilterExtensions,
        FilterPlugin,
        PreScorePlugin,
        ScorePlugin,
        ScoreExtensions {

  /** The reason when placing the pod on the node would exceed some constraint's maxSkew. */
  public static final String ERR_REASON_CONSTRAINTS_NOT_MATCH =
      "node(s) didn't match pod topology spread constraints";

  /** The reason when the node lacks a constraint's topology key. */
  public static final String ERR_REASON_NODE_LABEL_NOT_MATCH =
      ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)";

  static final String PRE_FILTER_STATE_KEY = "PreFilter" + Names.POD_TOPOLOGY_SPREAD;
  static final String PRE_SCORE_STATE_KEY = "PreScore" + Names.POD_TOPOLOGY_SPREAD;

  private static final List<TopologySpreadConstraint> SYSTEM_DEFAULT_CONSTRAINTS =
      List.of(
          new TopologySpreadConstraintBuilder()
              .withTopologyKey(SpreadConstraint.LABEL_HOSTNAME)
              .withWhenUnsatisfiable(SpreadConstraint.SCHEDULE_ANYWAY)
              .withMaxSkew(3)
              .build(),
          new TopologySpreadConstraintBuilder()
              .withTopologyKey(SpreadConstraint.LABEL_TOPOLOGY_ZONE)
              .withWhenUnsatisfiable(SpreadConstraint.SCHEDULE_ANYWAY)
              .withMaxSkew(5)
              .build());

  private static final Status CONSTRAINTS_NOT_MATCH =
      Status.unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH).withPlugin(Names.POD_TOPOLOGY_SPREAD);
  private static final Status NODE_LABEL_NOT_MATCH =
      Status.unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH).withPlugin(Names.POD_TOPOLOGY_SPREAD);
  private static final long INVALID_SCORE = -1;

  private final List<TopologySpreadConstraint> defaultConstraints;
  private final boolean systemDefaulted;
  private final ClusterObjects cluster;
  private final Parallelizer parallelizer;
  // Matching pods per domain over the whole cluster for hard and for soft constraints, carried from
  // pod to pod.
  private final RunningTotals<DomainTotals.Key, DomainTotals.Share, Map<String, long[]>>
      preFilterTotals = DomainTotals.newTotals();
  private final RunningTotals<DomainTotals.Key, DomainTotals.Share, Map<String, long[]>>
      preScoreTotals = DomainTotals.newTotals();

  private PodTopologySpread(
      List<TopologySpreadConstraint> defaultConstraints,
      boolean systemDefaulted,
      ClusterObjects cluster,
      Parallelizer parallelizer) {
    this.defaultConstraints = defaultConstraints;
    this.systemDefaulted = systemDefaulted;
    this.cluster = cluster;
    this.parallelizer = parallelizer;
  }

  /** The registered name, {@value Names#POD_TOPOLOGY_SPREAD}. */
  @Override
  public String name() {
    return Names.POD_TOPOLOGY_SPREAD;
  }

  /** Counts the matching pods per domain of the pod's hard constraints; Skip when it has none. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    List<SpreadConstraint> constraints;
    try {
      constraints = constraintsFor(pod, SpreadConstraint.DO_NOT_SCHEDULE);
    } catch (IllegalArgumentException e) {
      return PreFilterResult.of(
          Status.error(
              "get constraints from pod: obtaining pod's hard topology spread "
                  + "constraints: "
                  + e.getMessage()));
    }
    if (constraints.isEmpty()) {
      return PreFilterResult.of(Status.skip());
    }
    state.write(
        PRE_FILTER_STATE_KEY,
        PreFilterState.compute(
            constraints, pod, state.snapshot().list(), parallelizer, preFilterTotals));
    return PreFilterResult.success();
  }

  /** This plugin: it keeps its PreFilter counts right when the framework adds or removes pods. */
  @Override
  public PreFilterExtensions preFilterExtensions() {
    return this;
  }

  /** Counts {@code podToAdd} in its node's domains as if it ran there. */
  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    state.read(PRE_FILTER_STATE_KEY, PreFilterState.class).update(podToAdd, node, 1);
    return Status.success();
  }

  /** Stops counting {@code podToRemove} in its node's domains. */
  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    state.read(PRE_FILTER_STATE_KEY, PreFilterState.class).update(podToRemove, node, -1);
    return Status.success();
  }

  /**
   * Rejects the node when it lacks a constraint's topology key (unresolvable), or when its domain's
   * count plus the pod itself (if selected) minus the global minimum would exceed maxSkew.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PreFilterState s = state.read(PRE_FILTER_STATE_KEY, PreFilterState.class);
    List<SpreadConstraint> constraints = s.constraints();
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint c = constraints.get(i);
      String value = node.labels().get(c.topologyKey());
      if (value == null) {
        return NODE_LABEL_NOT_MATCH;
      }
      long skew = (long) s.matchNum(i, value) + (s.selfMatch(i) ? 1 : 0) - s.minMatchNum(i);
      if (skew > c.maxSkew()) {
        return CONSTRAINTS_NOT_MATCH;
      }
    }
    return Status.success();
  }

  /** Counts the matching pods per domain of the pod's soft constraints; Skip when it has none. */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    List<NodeInfo> allNodes = state.snapshot().list();
    if (allNodes.isEmpty()) {
      return Status.skip();
    }
    // Nodes without every topology key are only excused for system default spreading, so that
    // hostname spreading still works on nodes without a zone.
    boolean requireAllTopologies = hasConstraints(pod) || !systemDefaulted;
    List<SpreadConstraint> constraints;
    try {
      constraints = constraintsFor(pod, SpreadConstraint.SCHEDULE_ANYWAY);
    } catch (IllegalArgumentException e) {
      return Status.error(
          "calculating preScoreState: obtaining pod's soft topology spread constraints: "
              + e.getMessage());
    }
    if (constraints.isEmpty()) {
      return Status.skip();
    }
    state.write(
        PRE_SCORE_STATE_KEY,
        PreScoreState.compute(
            constraints, pod, nodes, allNodes, requireAllTopologies, parallelizer, preScoreTotals));
    return Status.success();
  }

  /**
   * Sums, over the soft constraints, the node's domain count times the constraint weight plus
   * maxSkew - 1.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    PreScoreState s = state.read(PRE_SCORE_STATE_KEY, PreScoreState.class);
    if (s.ignored(node.name())) {
      return 0;
    }
    double score = 0;
    List<SpreadConstraint> constraints = s.constraints();
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint c = constraints.get(i);
      String value = node.label(c.topologyKey());
      if (value == null) {
        continue;
      }
      long count;
      if (s.hostname(i)) {
        count = s.matchingPods(i).count(node);
      } else {
        count = s.podCount(i, value);
        if (count < 0) {
          throw new FrameworkException(
              "topology value \""
                  + value
                  + "\" of node \""
                  + node.name()
                  + "\" was not counted at PreScore");
        }
      }
      score += count * s.weight(i) + (c.maxSkew() - 1);
    }
    return roundHalfAwayFromZero(score);
  }

  /**
   * Go's {@code math.Round}: halves round away from zero (Java's {@code Math.round} rounds them
   * up).
   */
  static long roundHalfAwayFromZero(double x) {
    long truncated = (long) x;
    double rest = x - truncated;
    if (rest >= 0.5) {
      return truncated + 1;
    }
    if (rest <= -0.5) {
      return truncated - 1;
    }
    return truncated;
  }

  /** This plugin: it normalises its own scores. */
  @Override
  public ScoreExtensions scoreExtensions() {
    return this;
  }

  /**
   * Inverts the scores so the least loaded node gets 100; unscored nodes get 0, and all 100 when
   * the top is 0.
   */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    PreScoreState s = state.read(PRE_SCORE_STATE_KEY, PreScoreState.class);
    long min = Long.MAX_VALUE;
    long max = 0;
    boolean anyIgnored = s.anyIgnored();
    for (int i = 0; i < scores.size(); i++) {
      if (anyIgnored && s.ignored(scores.name(i))) {
        scores.set(i, INVALID_SCORE);
        continue;
      }
      min = Math.min(min, scores.get(i));
      max = Math.max(max, scores.get(i));
    }
    Normalize.Divider byMax = max == 0 ? null : new Normalize.Divider(max);
    for (int i = 0; i < scores.size(); i++) {
      long v = scores.get(i);
      if (v == INVALID_SCORE) {
        scores.set(i, 0);
      } else if (max == 0) {
        scores.set(i, MAX_NODE_SCORE);
      } else {
        scores.set(i, byMax.quotient(MAX_NODE_SCORE * (max + min - v)));
      }
    }
    return Status.success();
  }

  private static boolean hasConstraints(PodInfo pod) {
    return pod.pod().getSpec() != null
        && pod.pod().getSpec().getTopologySpreadConstraints() != null
        && !pod.pod().getSpec().getTopologySpreadConstraints().isEmpty();
  }

  /**
   * The pod's own constraints for {@code action}, or when it declares none, the default constraints
   * for {@code action} counting the pods its Services and controller select (none when that
   * selector is empty).
   */
  private List<SpreadConstraint> constraintsFor(PodInfo pod, String action) {
    if (hasConstraints(pod)) {
      return SpreadConstraint.compile(
          pod.pod().getSpec().getTopologySpreadConstraints(), pod.labels(), action);
    }
    List<SpreadConstraint> constraints =
        SpreadConstraint.compile(defaultConstraints, pod.labels(), action);
    if (constraints.isEmpty()) {
      return constraints;
    }
    Selector selector = DefaultSelector.of(pod, cluster);
    if (selector.isEverything()) {
      return List.of();
    }
    return constraints.stream().map(c -> c.withSelector(selector)).toList();
  }

  /**
   * The factory registered under {@link Names#POD_TOPOLOGY_SPREAD}; throws {@link
   * FrameworkException} naming the invalid field and the allowed values when the arguments do not
   * validate.
   */
  public static PodTopologySpread create(PluginArgs args, Handle handle) {
    PodTopologySpreadArgs a =
        args == null ? new PodTopologySpreadArgs(null, null) : args.as(PodTopologySpreadArgs.class);
    List<String> errors = a.validate();
    if (!errors.isEmpty()) {
      throw new FrameworkException(
          "invalid args for plugin "
              + Names.POD_TOPOLOGY_SPREAD
              + ": "
              + (errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]"));
    }
    boolean system = PodTopologySpreadArgs.SYSTEM_DEFAULTING.equals(a.defaultingType());
    List<TopologySpreadConstraint> defaults =
        system ? SYSTEM_DEFAULT_CONSTRAINTS : a.defaultConstraints();
    ClusterObjects cluster = handle == null ? null : handle.clusterObjects();
    if (!defaults.isEmpty() && cluster == null) {
      throw new FrameworkException(
          "plugin "
              + Names.POD_TOPOLOGY_SPREAD
              + " needs the cluster objects (Services, controllers) for its default constraints");
    }
    return new PodTopologySpread(
        defaults, system, cluster, handle == null ? null : handle.parallelizer());
  }
}
