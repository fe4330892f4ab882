package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.AffinityTerm;
import io.schedext.framework.WeightedAffinityTerm;
import io.schedext.kube.Selector;
import io.schedext.testing.ValueEquality;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The keys InterPodAffinity interns for its per-node memos: a key built again from the same inputs
 * equals the first (so the next pod of a workload finds what the last one remembered), and a key
 * differing in any input does not.
 */
class InternedKeysTest {

  private static final Map<String, String> WEB = Map.of("app", "web");
  private static final Map<String, String> TEAM = Map.of("team", "a");

  private static AffinityTerm term(String topologyKey) {
    return new AffinityTerm(
        Set.of("shop"), Selector.fromSet(Map.of("app", "db")), topologyKey, Selector.nothing());
  }

  private static List<WeightedAffinityTerm> weighted(String topologyKey) {
    return List.of(new WeightedAffinityTerm(term(topologyKey), 5));
  }

  private static TopologyScores.Key scores(
      String namespace,
      Map<String, String> labels,
      Map<String, String> namespaceLabels,
      List<WeightedAffinityTerm> affinity,
      List<WeightedAffinityTerm> antiAffinity,
      int hardWeight,
      boolean allPods) {
    return new TopologyScores.Key(
        namespace, labels, namespaceLabels, affinity, antiAffinity, hardWeight, allPods);
  }

  @Test
  void theScoringKey() {
    ValueEquality.check(
        scores("shop", WEB, TEAM, weighted("zone"), List.of(), 1, true),
        scores(
            "shop",
            Map.of("app", "web"),
            Map.of("team", "a"),
            weighted("zone"),
            List.of(),
            1,
            true),
        List.of(
            scores("dev", WEB, TEAM, weighted("zone"), List.of(), 1, true),
            scores("shop", Map.of("app", "db"), TEAM, weighted("zone"), List.of(), 1, true),
            scores("shop", WEB, Map.of(), weighted("zone"), List.of(), 1, true),
            scores("shop", WEB, TEAM, weighted("hostname"), List.of(), 1, true),
            scores("shop", WEB, TEAM, weighted("zone"), weighted("zone"), 1, true),
            scores("shop", WEB, TEAM, weighted("zone"), List.of(), 2, true),
            scores("shop", WEB, TEAM, weighted("zone"), List.of(), 1, false)));
  }

  @Test
  void theExistingAntiAffinityKey() {
    ValueEquality.check(
        new PreFilterState.ExistingAntiAffinityKey("shop", WEB, TEAM),
        new PreFilterState.ExistingAntiAffinityKey(
            "shop", Map.of("app", "web"), Map.of("team", "a")),
        List.of(
            new PreFilterState.ExistingAntiAffinityKey("dev", WEB, TEAM),
            new PreFilterState.ExistingAntiAffinityKey("shop", Map.of(), TEAM),
            new PreFilterState.ExistingAntiAffinityKey("shop", WEB, Map.of())));
  }

  @Test
  void theIncomingTermsKey() {
    ValueEquality.check(
        new PreFilterState.IncomingTerms(List.of(term("zone")), List.of()),
        new PreFilterState.IncomingTerms(List.of(term("zone")), List.of()),
        List.of(
            new PreFilterState.IncomingTerms(List.of(term("hostname")), List.of()),
            new PreFilterState.IncomingTerms(List.of(), List.of(term("zone"))),
            new PreFilterState.IncomingTerms(List.of(term("zone")), List.of(term("zone")))));
  }
}
