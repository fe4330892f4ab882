package io.schedext.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.Affinity;
import io.schedext.framework.AffinityTerm;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeInfoLister;
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
import io.schedext.plugins.Names;
import java.util.List;
import java.util.Map;

/**
 * Filters and scores nodes by pod affinity and anti-affinity, required and preferred, the incoming
 * pod's and the existing pods' (symmetry), as upstream's {@code InterPodAffinity}. PreFilter and
 * PreScore do all the matching over the snapshot; Filter and Score only look up pre-computed
 * counts.
 *
 * <p>Unlike upstream, it carries state from one pod to the next: three sets of cluster-wide sums
 * ({@link RunningTotals}) — PreFilter's counts of existing pods' anti-affinity matching the pod,
 * PreFilter's counts of pods matching the pod's required terms, and PreScore's topology scores —
 * each bounded to the 64 most recently used keys, and each node's share remembered on its snapshot
 * node info (which forgets it when the node changes). Both are keyed by records declared next to
 * the per-node function they key, whose components are every input of that function besides the
 * node ({@link PreFilterState.ExistingAntiAffinityKey}, {@link PreFilterState.IncomingTerms},
 * {@link TopologyScores.Key}), so the next pod of the same workload reads the sums back, adjusted
 * only for the nodes that changed. The per-cycle results live in the cycle state. Thread-safe.
 */
public final class InterPodAffinity
    implements PreFilterPlugin,
        PreFilterExtensions,
        FilterPlugin,
        PreScorePlugin,
        ScorePlugin,
        ScoreExtensions {

  /** The plugin's name. */
  public static final String NAME = Names.INTER_POD_AFFINITY;

  /** The reason when existing pods' required anti-affinity terms forbid this node. */
  public static final String ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't satisfy existing pods anti-affinity rules";

  /** The reason when the pod's required affinity terms are not met on this node. */
  public static final String ERR_REASON_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't match pod affinity rules";

  /** The reason when the pod's required anti-affinity terms forbid this node. */
  public static final String ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH =
      "node(s) didn't match pod anti-affinity rules";

  static final String PRE_FILTER_STATE_KEY = "PreFilter" + NAME;
  static final String PRE_SCORE_STATE_KEY = "PreScore" + NAME;

  private static final Status AFFINITY_NOT_MATCH =
      Status.unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH).withPlugin(NAME);
  private static final Status ANTI_AFFINITY_NOT_MATCH =
      Status.unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH).withPlugin(NAME);
  private static final Status EXISTING_ANTI_AFFINITY_NOT_MATCH =
      Status.unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH).withPlugin(NAME);

  /** How many keys (incoming workloads, or sets of terms) each of the carried totals keeps. */
  private static final int KEYS = 64;

  private final InterPodAffinityArgs args;
  private final Handle handle;
  // PreFilter's pair counts summed over the cluster (existing pods' anti-affinity per incoming
  // workload, and the pod's own terms per set of terms), carried from pod to pod.
  private final RunningTotals<
          PreFilterState.ExistingAntiAffinityKey, TopologyPairCounts[], TopologyPairCounts[]>
      existingTotals = new RunningTotals<>(KEYS);
  private final RunningTotals<
          PreFilterState.IncomingTerms, TopologyPairCounts[], TopologyPairCounts[]>
      incomingTotals = new RunningTotals<>(KEYS);
  // PreScore's topology scores summed over the cluster, per incoming workload, carried from pod to
  // pod.
  private final RunningTotals<TopologyScores.Key, TopologyScores, Map<String, Map<String, long[]>>>
      scoreTotals = new RunningTotals<>(KEYS);

  private InterPodAffinity(InterPodAffinityArgs args, Handle handle) {
    this.args = args;
    this.handle = handle;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The plugin's arguments after defaulting. */
  public InterPodAffinityArgs args() {
    return args;
  }

  /**
   * Counts, per topology pair, the existing pods whose required anti-affinity matches the pod and
   * the existing pods matching the pod's required (anti-)affinity terms; Skip when there is nothing
   * to enforce.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    if (pod.parseError() != null) {
      return PreFilterResult.of(
          Status.unresolvable("parsing pod: " + pod.parseError()).withPlugin(NAME));
    }
    ClusterObjects objects = handle.clusterObjects();
    List<AffinityTerm> affinityTerms = TermNamespaces.merge(pod.requiredAffinityTerms(), objects);
    List<AffinityTerm> antiAffinityTerms =
        TermNamespaces.merge(pod.requiredAntiAffinityTerms(), objects);
    Map<String, String> namespaceLabels = TermNamespaces.labelsOf(pod.namespace(), objects);
    NodeInfoLister snapshot = state.snapshot();
    TopologyPairCounts existing =
        PreFilterState.existingAntiAffinityCounts(
            pod, namespaceLabels, snapshot.list(), handle.parallelizer(), existingTotals);
    TopologyPairCounts[] incoming =
        PreFilterState.incomingCounts(
            affinityTerms,
            antiAffinityTerms,
            snapshot.list(),
            handle.parallelizer(),
            incomingTotals);
    PreFilterState s =
        new PreFilterState(
            existing,
            incoming[0],
            incoming[1],
            pod,
            affinityTerms,
            antiAffinityTerms,
            namespaceLabels);
    if (s.nothingToFilter()) {
      return PreFilterResult.of(Status.skip());
    }
    state.write(PRE_FILTER_STATE_KEY, s);
    return PreFilterResult.success();
  }

  @Override
  public PreFilterExtensions preFilterExtensions() {
    return this;
  }

  /** Counts {@code podToAdd} on {@code node} into the pre-computed state. */
  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    PreFilterState.read(state, PRE_FILTER_STATE_KEY).updateWithPod(podToAdd, node, 1);
    return Status.success();
  }

  /** Takes {@code podToRemove} on {@code node} out of the pre-computed state. */
  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    PreFilterState.read(state, PRE_FILTER_STATE_KEY).updateWithPod(podToRemove, node, -1);
    return Status.success();
  }

  /**
   * Checks, in upstream's order, the pod's affinity, its anti-affinity, then the existing pods'
   * anti-affinity.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PreFilterState s = PreFilterState.read(state, PRE_FILTER_STATE_KEY);
    if (!s.satisfiesPodAffinity(node)) {
      return AFFINITY_NOT_MATCH;
    }
    if (!s.satisfiesPodAntiAffinity(node)) {
      return ANTI_AFFINITY_NOT_MATCH;
    }
    if (!s.satisfiesExistingPodsAntiAffinity(node)) {
      return EXISTING_ANTI_AFFINITY_NOT_MATCH;
    }
    return Status.success();
  }

  /**
   * Sums the weights of matching preferred terms (the pod's and the existing pods') and of existing
   * pods' required affinity terms per topology pair; Skip when nothing was credited or when told to
   * ignore existing pods' preferred terms and the pod has none of its own.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    boolean hasConstraints = hasPreferredTerms(pod);
    if (args.ignorePreferredTermsOfExistingPods() && !hasConstraints) {
      return Status.skip();
    }
    if (pod.parseError() != null) {
      return Status.error("failed to parse pod: " + pod.parseError()).withPlugin(NAME);
    }
    ClusterObjects objects = handle.clusterObjects();
    // A node's scores depend on its pods and labels and on the key's inputs only: they are
    // remembered on the snapshot node info, so the next pod of the same workload reads them back,
    // and the cluster-wide sum is carried from pod to pod under the same key, adjusted for the
    // nodes that changed.
    TopologyScores.Key key =
        TopologyScores.Key.of(
            pod,
            TermNamespaces.labelsOf(pod.namespace(), objects),
            TermNamespaces.mergeWeighted(pod.preferredAffinityTerms(), objects),
            TermNamespaces.mergeWeighted(pod.preferredAntiAffinityTerms(), objects),
            args.hardPodAffinityWeight(),
            hasConstraints);
    PreScoreState total =
        scoreTotals.total(
            key,
            state.snapshot().list(),
            new ScoreTotals(new TopologyScores.Incoming(pod, key)),
            handle.parallelizer(),
            ScoreTotals::freeze);
    if (total == null) {
      return Status.skip();
    }
    state.write(PRE_SCORE_STATE_KEY, total);
    return Status.success();
  }

  /**
   * Whether the pod's spec declares preferred affinity or anti-affinity terms (read from the spec,
   * as upstream).
   */
  private static boolean hasPreferredTerms(PodInfo pod) {
    Affinity a = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getAffinity();
    if (a == null) {
      return false;
    }
    boolean affinity =
        a.getPodAffinity() != null
            && a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() != null
            && !a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().isEmpty();
    boolean antiAffinity =
        a.getPodAntiAffinity() != null
            && a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() != null
            && !a.getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution()
                .isEmpty();
    return affinity || antiAffinity;
  }

  /**
   * The sum of the pre-computed scores of the topology pairs this node belongs to (negative means
   * avoid).
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return PreScoreState.read(state, PRE_SCORE_STATE_KEY).score(node);
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return this;
  }

  /**
   * Maps scores linearly onto 0–100 between the lowest and the highest score, in double arithmetic
   * truncated as upstream does; all equal gives 0; left unchanged when nothing was scored.
   */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    if (PreScoreState.read(state, PRE_SCORE_STATE_KEY).isEmpty()) {
      return Status.success();
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < scores.size(); i++) {
      min = Math.min(min, scores.get(i));
      max = Math.max(max, scores.get(i));
    }
    long diff = max - min;
    for (int i = 0; i < scores.size(); i++) {
      double f = 0;
      if (diff > 0) {
        f = (double) MAX_NODE_SCORE * ((double) (scores.get(i) - min) / (double) diff);
      }
      scores.set(i, (long) f);
    }
    return Status.success();
  }

  /**
   * The factory registered under {@link Names#INTER_POD_AFFINITY}; throws {@link
   * FrameworkException} when {@code hardPodAffinityWeight} is outside 0–100.
   */
  public static InterPodAffinity create(PluginArgs args, Handle handle) {
    InterPodAffinityArgs a =
        args == null ? InterPodAffinityArgs.defaults() : args.as(InterPodAffinityArgs.class);
    if (a == null) {
      a = InterPodAffinityArgs.defaults();
    }
    int w = a.hardPodAffinityWeight();
    if (w < 0 || w > 100) {
      throw new FrameworkException(
          "hardPodAffinityWeight: Invalid value: " + w + ": not in valid range [0, 100]");
    }
    if (handle == null) {
      throw new FrameworkException("plugin " + NAME + " needs a framework handle");
    }
    return new InterPodAffinity(a, handle);
  }
}
