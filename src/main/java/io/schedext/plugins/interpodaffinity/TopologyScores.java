package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.AffinityTerm;
import io.schedext.framework.Interner;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.WeightedAffinityTerm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Score contributions per topology key and value while PreScore collects them, as upstream's {@code
 * scoreMap}: unlike {@link TopologyPairCounts} a pair that sums to zero stays. One instance per
 * node ({@link #on}), remembered on the node info under its {@link Key} and summed over the cluster
 * by {@link ScoreTotals}; not thread-safe while being filled, read-only afterwards.
 */
final class TopologyScores {

  private final HashMap<String, HashMap<String, Long>> byKey = new HashMap<>();

  /**
   * Every input of a node's scores ({@link #on}) besides the node and so the key they are
   * remembered and summed under: the incoming pod as existing pods' terms see it (namespace,
   * labels, namespace labels), its preferred terms with namespace selectors merged, the weight of
   * existing pods' required affinity, and which existing pods count.
   *
   * @param namespace the incoming pod's namespace
   * @param labels the incoming pod's labels
   * @param namespaceLabels the labels of the incoming pod's namespace
   * @param preferredAffinityTerms the incoming pod's preferred affinity terms, namespace selectors
   *     merged
   * @param preferredAntiAffinityTerms the incoming pod's preferred anti-affinity terms, namespace
   *     selectors merged
   * @param hardPodAffinityWeight the weight of an existing pod's required affinity term the
   *     incoming pod matches
   * @param allPods whether every existing pod counts (the pod has preferred terms) or only pods
   *     with affinity terms
   */
  record Key(
      String namespace,
      Map<String, String> labels,
      Map<String, String> namespaceLabels,
      List<WeightedAffinityTerm> preferredAffinityTerms,
      List<WeightedAffinityTerm> preferredAntiAffinityTerms,
      int hardPodAffinityWeight,
      boolean allPods) {

    // One instance per distinct key, so that per-node memo lookups compare references.
    private static final Interner<Key> INTERNED = new Interner<>(1024);

    /** The interned key of these inputs for {@code pod}. */
    static Key of(
        PodInfo pod,
        Map<String, String> namespaceLabels,
        List<WeightedAffinityTerm> preferredAffinityTerms,
        List<WeightedAffinityTerm> preferredAntiAffinityTerms,
        int hardPodAffinityWeight,
        boolean allPods) {
      return INTERNED.intern(
          new Key(
              pod.namespace(),
              pod.labels(),
              namespaceLabels,
              preferredAffinityTerms,
              preferredAntiAffinityTerms,
              hardPodAffinityWeight,
              allPods));
    }

    // Written out rather than left to the record: the generated methods go through a method handle
    // chain that the compiler, with the image's inlining limits, does not fold, and this key is
    // looked up on every call.
    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof Key k
              && hardPodAffinityWeight == k.hardPodAffinityWeight
              && allPods == k.allPods
              && Objects.equals(namespace, k.namespace)
              && Objects.equals(labels, k.labels)
              && Objects.equals(namespaceLabels, k.namespaceLabels)
              && Objects.equals(preferredAffinityTerms, k.preferredAffinityTerms)
              && Objects.equals(preferredAntiAffinityTerms, k.preferredAntiAffinityTerms));
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(namespace);
      h = 31 * h + Objects.hashCode(labels);
      h = 31 * h + Objects.hashCode(namespaceLabels);
      h = 31 * h + Objects.hashCode(preferredAffinityTerms);
      h = 31 * h + Objects.hashCode(preferredAntiAffinityTerms);
      h = 31 * h + hardPodAffinityWeight;
      return 31 * h + Boolean.hashCode(allPods);
    }
  }

  /**
   * The incoming pod and its scoring inputs. The pod itself is read only where a term is matched
   * against it, which looks at its namespace and labels, both in the key.
   *
   * @param pod the pod being scheduled
   * @param key its scoring inputs
   */
  record Incoming(PodInfo pod, Key key) {}

  /**
   * What the existing pods on {@code node} contribute ({@link #processExistingPod}): a pure
   * function of the key.
   */
  static TopologyScores on(NodeInfo node, Incoming in) {
    TopologyScores scores = new TopologyScores();
    List<PodInfo> pods = in.key().allPods() ? node.pods() : node.podsWithAffinity();
    for (int i = 0; i < pods.size(); i++) {
      scores.processExistingPod(in, pods.get(i), node);
    }
    return scores;
  }

  /** True when nothing was credited. */
  boolean isEmpty() {
    return byKey.isEmpty();
  }

  /**
   * Credits {@code weight × multiplier} at the node's value of the term's key when {@code pod}
   * matches the term.
   */
  void processTerm(
      AffinityTerm term,
      int weight,
      PodInfo pod,
      Map<String, String> namespaceLabels,
      Map<String, String> nodeLabels,
      int multiplier) {
    if (term.matches(pod, namespaceLabels)) {
      String value = TopologyPairCounts.topologyValue(nodeLabels, term.topologyKey());
      if (value != null) {
        byKey
            .computeIfAbsent(term.topologyKey(), k -> new HashMap<>())
            .merge(value, (long) weight * multiplier, Long::sum);
      }
    }
  }

  private void processTerms(
      List<WeightedAffinityTerm> terms,
      PodInfo pod,
      Map<String, String> namespaceLabels,
      Map<String, String> nodeLabels,
      int multiplier) {
    for (WeightedAffinityTerm w : terms) {
      processTerm(w.term(), w.weight(), pod, namespaceLabels, nodeLabels, multiplier);
    }
  }

  /**
   * Adds what one existing pod on {@code node} contributes: the incoming pod's preferred terms it
   * matches (+/− weight), and the existing pod's required affinity (+hardPodAffinityWeight) and
   * preferred (+/− weight) terms the incoming pod matches. Nodes without labels contribute nothing.
   */
  void processExistingPod(Incoming in, PodInfo existing, NodeInfo node) {
    Map<String, String> labels = node.labels();
    if (labels.isEmpty()) {
      return;
    }
    Key key = in.key();
    // The incoming pod's terms have merged namespaces, so the existing pod's namespace labels are
    // not needed.
    processTerms(key.preferredAffinityTerms(), existing, null, labels, 1);
    processTerms(key.preferredAntiAffinityTerms(), existing, null, labels, -1);
    if (key.hardPodAffinityWeight() > 0) {
      for (AffinityTerm t : existing.requiredAffinityTerms()) {
        processTerm(t, key.hardPodAffinityWeight(), in.pod(), key.namespaceLabels(), labels, 1);
      }
    }
    processTerms(existing.preferredAffinityTerms(), in.pod(), key.namespaceLabels(), labels, 1);
    processTerms(
        existing.preferredAntiAffinityTerms(), in.pod(), key.namespaceLabels(), labels, -1);
  }

  /** A visitor of topology pairs and their scores. */
  interface PairVisitor {
    void visit(String key, String value, long score);
  }

  /** Visits every topology pair with its score. */
  void forEach(PairVisitor visitor) {
    byKey.forEach((k, values) -> values.forEach((v, n) -> visitor.visit(k, v, n)));
  }
}
