package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.AffinityTerm;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.WeightedAffinityTerm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Score contributions per topology key and value while PreScore collects them, as upstream's {@code scoreMap}:
 * unlike {@link TopologyPairCounts} a pair that sums to zero stays. One instance per node, remembered on the node info
 * and summed over the cluster by {@link ScoreTotals}; not thread-safe while being filled, read-only afterwards.
 */
final class TopologyScores {

  private final HashMap<String, HashMap<String, Long>> byKey = new HashMap<>();

  /** The incoming pod's scoring inputs, with namespace selectors already merged into its own terms. */
  record Incoming(
      PodInfo pod,
      List<WeightedAffinityTerm> preferredAffinityTerms,
      List<WeightedAffinityTerm> preferredAntiAffinityTerms,
      Map<String, String> namespaceLabels,
      int hardPodAffinityWeight) {}

  /** True when nothing was credited. */
  boolean isEmpty() {
    return byKey.isEmpty();
  }

  /** Credits {@code weight × multiplier} at the node's value of the term's key when {@code pod} matches the term. */
  void processTerm(
      AffinityTerm term, int weight, PodInfo pod, Map<String, String> namespaceLabels, Map<String, String> nodeLabels,
      int multiplier) {
    if (term.matches(pod, namespaceLabels)) {
      String value = TopologyPairCounts.topologyValue(nodeLabels, term.topologyKey());
      if (value != null) {
        byKey.computeIfAbsent(term.topologyKey(), k -> new HashMap<>())
            .merge(value, (long) weight * multiplier, Long::sum);
      }
    }
  }

  private void processTerms(
      List<WeightedAffinityTerm> terms, PodInfo pod, Map<String, String> namespaceLabels,
      Map<String, String> nodeLabels, int multiplier) {
    for (WeightedAffinityTerm w : terms) {
      processTerm(w.term(), w.weight(), pod, namespaceLabels, nodeLabels, multiplier);
    }
  }

  /**
   * Adds what one existing pod on {@code node} contributes: the incoming pod's preferred terms it matches (+/−
   * weight), and the existing pod's required affinity (+hardPodAffinityWeight) and preferred (+/− weight) terms the
   * incoming pod matches. Nodes without labels contribute nothing.
   */
  void processExistingPod(Incoming in, PodInfo existing, NodeInfo node) {
    Map<String, String> labels = node.labels();
    if (labels.isEmpty()) {
      return;
    }
    // The incoming pod's terms have merged namespaces, so the existing pod's namespace labels are not needed.
    processTerms(in.preferredAffinityTerms(), existing, null, labels, 1);
    processTerms(in.preferredAntiAffinityTerms(), existing, null, labels, -1);
    if (in.hardPodAffinityWeight() > 0) {
      for (AffinityTerm t : existing.requiredAffinityTerms()) {
        processTerm(t, in.hardPodAffinityWeight(), in.pod(), in.namespaceLabels(), labels, 1);
      }
    }
    processTerms(existing.preferredAffinityTerms(), in.pod(), in.namespaceLabels(), labels, 1);
    processTerms(existing.preferredAntiAffinityTerms(), in.pod(), in.namespaceLabels(), labels, -1);
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
