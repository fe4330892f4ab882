package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.AffinityTerm;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Interner;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.RunningTotals;
import io.schedext.framework.StateData;
import io.schedext.framework.parallelize.Parallelizer;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What InterPodAffinity's PreFilter computes for Filter, as upstream's {@code preFilterState}:
 * three topology pair counts, the incoming pod's required terms with namespace selectors merged,
 * and its namespace's labels. Filter only reads it; AddPod/RemovePod mutate the counts of a {@link
 * #copy()}, which deep-copies them.
 */
final class PreFilterState implements StateData {

  /** Existing pods whose required anti-affinity terms match the incoming pod, per topology pair. */
  private final TopologyPairCounts existingAntiAffinityCounts;

  /**
   * Existing pods matching all the incoming pod's required affinity terms, per term's topology
   * pair.
   */
  private final TopologyPairCounts affinityCounts;

  /**
   * Existing pods matching each of the incoming pod's required anti-affinity terms, per topology
   * pair.
   */
  private final TopologyPairCounts antiAffinityCounts;

  private final PodInfo pod;
  private final List<AffinityTerm> affinityTerms;
  private final List<AffinityTerm> antiAffinityTerms;
  private final Map<String, String> namespaceLabels;
  private final boolean podMatchesOwnAffinityTerms;

  PreFilterState(
      TopologyPairCounts existingAntiAffinityCounts,
      TopologyPairCounts affinityCounts,
      TopologyPairCounts antiAffinityCounts,
      PodInfo pod,
      List<AffinityTerm> affinityTerms,
      List<AffinityTerm> antiAffinityTerms,
      Map<String, String> namespaceLabels) {
    this.existingAntiAffinityCounts = existingAntiAffinityCounts;
    this.affinityCounts = affinityCounts;
    this.antiAffinityCounts = antiAffinityCounts;
    this.pod = pod;
    this.affinityTerms = affinityTerms;
    this.antiAffinityTerms = antiAffinityTerms;
    this.namespaceLabels = namespaceLabels;
    this.podMatchesOwnAffinityTerms = TopologyPairCounts.matchesAll(affinityTerms, pod);
  }

  /**
   * Reads the state PreFilter wrote; throws {@link FrameworkException} with upstream's message when
   * it is missing.
   */
  static PreFilterState read(CycleState state, String key) {
    if (!(state.readOrNull(key) instanceof PreFilterState s)) {
      throw new FrameworkException("error reading \"" + key + "\" from cycleState: not found");
    }
    return s;
  }

  /**
   * Counts, over {@code nodes}, the existing pods' required anti-affinity terms that match {@code
   * pod}, whose namespace carries {@code namespaceLabels}: from {@code totals}, adjusted for the
   * nodes changed since the last pod of the same workload.
   */
  static TopologyPairCounts existingAntiAffinityCounts(
      PodInfo pod,
      Map<String, String> namespaceLabels,
      List<NodeInfo> nodes,
      Parallelizer parallelizer,
      RunningTotals<ExistingAntiAffinityKey, TopologyPairCounts[], TopologyPairCounts[]> totals) {
    // A node's count is remembered on the (immutable) snapshot node info, and the sum carried,
    // under the same key.
    ExistingAntiAffinityKey key = ExistingAntiAffinityKey.of(pod, namespaceLabels);
    return totals
        .total(
            key,
            nodes,
            new PairCountTotals<>(
                1, key, new Incoming(pod, key), PreFilterState::existingAntiAffinityCountsOn, true),
            parallelizer,
            PairCountTotals::copies)[0];
  }

  /**
   * The key of {@link #existingAntiAffinityCountsOn}: what existing pods' required anti-affinity
   * terms see of the incoming pod, which is every input of the count besides the node (a term
   * matches a pod by its namespace, its labels and its namespace's labels).
   *
   * @param namespace the incoming pod's namespace
   * @param labels the incoming pod's labels
   * @param namespaceLabels the labels of the incoming pod's namespace
   */
  record ExistingAntiAffinityKey(
      String namespace, Map<String, String> labels, Map<String, String> namespaceLabels) {

    // One instance per distinct key, so that per-node memo lookups compare references.
    private static final Interner<ExistingAntiAffinityKey> INTERNED = new Interner<>(1024);

    /** The interned key for {@code pod}, whose namespace carries {@code namespaceLabels}. */
    static ExistingAntiAffinityKey of(PodInfo pod, Map<String, String> namespaceLabels) {
      return INTERNED.intern(
          new ExistingAntiAffinityKey(pod.namespace(), pod.labels(), namespaceLabels));
    }

    // Written out rather than left to the record: the generated methods go through a method handle
    // chain that the compiler, with the image's inlining limits, does not fold, and this key is
    // looked up on every call.
    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof ExistingAntiAffinityKey k
              && Objects.equals(namespace, k.namespace)
              && Objects.equals(labels, k.labels)
              && Objects.equals(namespaceLabels, k.namespaceLabels));
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(namespace);
      h = 31 * h + Objects.hashCode(labels);
      return 31 * h + Objects.hashCode(namespaceLabels);
    }
  }

  /** The incoming pod and its key, passed to the per-node count without a capturing lambda. */
  private record Incoming(PodInfo pod, ExistingAntiAffinityKey key) {}

  private static TopologyPairCounts[] existingAntiAffinityCountsOn(NodeInfo node, Incoming in) {
    TopologyPairCounts counts = new TopologyPairCounts();
    List<PodInfo> pods = node.podsWithRequiredAntiAffinity();
    for (int i = 0; i < pods.size(); i++) {
      counts.addAntiAffinityTerms(
          pods.get(i).requiredAntiAffinityTerms(),
          in.pod(),
          in.key().namespaceLabels(),
          node.labels(),
          1);
    }
    return new TopologyPairCounts[] {counts};
  }

  /**
   * Counts, over every pod on {@code nodes}, the pods matching all of {@code affinityTerms} (index
   * 0 of the result) and the pods matching each of {@code antiAffinityTerms} (index 1); both empty
   * when the pod has neither.
   */
  static TopologyPairCounts[] incomingCounts(
      List<AffinityTerm> affinityTerms,
      List<AffinityTerm> antiAffinityTerms,
      List<NodeInfo> nodes,
      Parallelizer parallelizer,
      RunningTotals<IncomingTerms, TopologyPairCounts[], TopologyPairCounts[]> totals) {
    if (affinityTerms.isEmpty() && antiAffinityTerms.isEmpty()) {
      return new TopologyPairCounts[] {new TopologyPairCounts(), new TopologyPairCounts()};
    }
    // The terms are both the key and the argument of the per-node counts: remembered on the
    // snapshot node info and summed over the cluster under them, carried from pod to pod.
    IncomingTerms terms = IncomingTerms.of(affinityTerms, antiAffinityTerms);
    return totals.total(
        terms,
        nodes,
        new PairCountTotals<>(2, terms, terms, PreFilterState::incomingCountsOn, false),
        parallelizer,
        PairCountTotals::copies);
  }

  /**
   * The incoming pod's required terms with namespace selectors merged: every input of {@link
   * #incomingCountsOn} besides the node, and so its key.
   *
   * @param affinity the required affinity terms
   * @param antiAffinity the required anti-affinity terms
   */
  record IncomingTerms(List<AffinityTerm> affinity, List<AffinityTerm> antiAffinity) {

    // One instance per distinct key, so that per-node memo lookups compare references.
    private static final Interner<IncomingTerms> INTERNED = new Interner<>(1024);

    /** The interned key of these terms. */
    static IncomingTerms of(List<AffinityTerm> affinity, List<AffinityTerm> antiAffinity) {
      return INTERNED.intern(new IncomingTerms(affinity, antiAffinity));
    }

    // Written out rather than left to the record: the generated methods go through a method handle
    // chain that the compiler, with the image's inlining limits, does not fold, and this key is
    // looked up on every call.
    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof IncomingTerms t
              && Objects.equals(affinity, t.affinity)
              && Objects.equals(antiAffinity, t.antiAffinity));
    }

    @Override
    public int hashCode() {
      return 31 * Objects.hashCode(affinity) + Objects.hashCode(antiAffinity);
    }
  }

  private static TopologyPairCounts[] incomingCountsOn(NodeInfo node, IncomingTerms t) {
    TopologyPairCounts a = new TopologyPairCounts();
    TopologyPairCounts anti = new TopologyPairCounts();
    List<PodInfo> pods = node.pods();
    for (int i = 0; i < pods.size(); i++) {
      a.addAffinityTerms(t.affinity(), pods.get(i), node.labels(), 1);
      // The incoming terms have their namespace selectors merged, so no namespace labels are
      // needed.
      anti.addAntiAffinityTerms(t.antiAffinity(), pods.get(i), null, node.labels(), 1);
    }
    return new TopologyPairCounts[] {a, anti};
  }

  /**
   * True when nothing needs filtering: no existing anti-affinity matches and the pod has no
   * required terms.
   */
  boolean nothingToFilter() {
    return existingAntiAffinityCounts.isEmpty()
        && affinityTerms.isEmpty()
        && antiAffinityTerms.isEmpty();
  }

  /**
   * Updates the counts as if {@code other} were added ({@code multiplier} 1) to or removed (-1)
   * from {@code node}.
   */
  void updateWithPod(PodInfo other, NodeInfo node, long multiplier) {
    Map<String, String> labels = node.labels();
    existingAntiAffinityCounts.addAntiAffinityTerms(
        other.requiredAntiAffinityTerms(), pod, namespaceLabels, labels, multiplier);
    affinityCounts.addAffinityTerms(affinityTerms, other, labels, multiplier);
    antiAffinityCounts.addAntiAffinityTerms(antiAffinityTerms, other, null, labels, multiplier);
  }

  /**
   * True when the node has every topology key of the pod's required affinity terms and, for each, a
   * matching pod in its topology; or when no pod matches anywhere yet and the pod matches its own
   * terms (the first of a group).
   */
  boolean satisfiesPodAffinity(NodeInfo node) {
    boolean podsExist = true;
    for (AffinityTerm t : affinityTerms) {
      String value = TopologyPairCounts.topologyValue(node, t.topologyKey());
      if (value == null) {
        return false;
      }
      if (affinityCounts.get(t.topologyKey(), value) <= 0) {
        podsExist = false;
      }
    }
    return podsExist || (affinityCounts.isEmpty() && podMatchesOwnAffinityTerms);
  }

  /**
   * True when no pod matching one of the pod's required anti-affinity terms is in that term's
   * topology.
   */
  boolean satisfiesPodAntiAffinity(NodeInfo node) {
    if (antiAffinityCounts.isEmpty()) {
      return true;
    }
    for (AffinityTerm t : antiAffinityTerms) {
      String value = TopologyPairCounts.topologyValue(node, t.topologyKey());
      if (value != null && antiAffinityCounts.get(t.topologyKey(), value) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when no existing pod's required anti-affinity term matching the pod covers this node's
   * topology.
   */
  boolean satisfiesExistingPodsAntiAffinity(NodeInfo node) {
    return existingAntiAffinityCounts.isEmpty() || !existingAntiAffinityCounts.anyPositive(node);
  }

  TopologyPairCounts existingAntiAffinityCounts() {
    return existingAntiAffinityCounts;
  }

  TopologyPairCounts affinityCounts() {
    return affinityCounts;
  }

  TopologyPairCounts antiAffinityCounts() {
    return antiAffinityCounts;
  }

  /**
   * A copy with deep-copied counts; the pod, its terms and the namespace labels are immutable and
   * shared.
   */
  @Override
  public PreFilterState copy() {
    return new PreFilterState(
        existingAntiAffinityCounts.copy(),
        affinityCounts.copy(),
        antiAffinityCounts.copy(),
        pod,
        affinityTerms,
        antiAffinityTerms,
        namespaceLabels);
  }

  @Override
  public String toString() {
    return "PreFilterState{existingAntiAffinity="
        + existingAntiAffinityCounts
        + ", affinity="
        + affinityCounts
        + ", antiAffinity="
        + antiAffinityCounts
        + "}";
  }
}
