package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * spec.nodeSelector ANDed with required node affinity, as component-helpers'
 * GetRequiredNodeAffinity.
 */
class RequiredNodeAffinityTest {

  record Case(
      String name,
      PodWrapper pod,
      String node,
      Map<String, String> labels,
      boolean matches,
      boolean empty) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static PodWrapper pod() {
    return MakePod.pod().name("p");
  }

  static Stream<Case> cases() {
    NodeSelector noTerms = new NodeSelector();
    noTerms.setNodeSelectorTerms(new ArrayList<>());
    return Stream.of(
        new Case("a pod without constraints fits every node", pod(), "n", Map.of(), true, true),
        new Case(
            "an empty nodeSelector is no constraint",
            pod().nodeSelector(Map.of()),
            "n",
            Map.of(),
            true,
            true),
        new Case(
            "the nodeSelector must match",
            pod().nodeSelector(Map.of("disk", "ssd")),
            "n",
            Map.of("disk", "hdd"),
            false,
            false),
        new Case(
            "a matching nodeSelector",
            pod().nodeSelector(Map.of("disk", "ssd")),
            "n",
            Map.of("disk", "ssd", "x", "y"),
            true,
            false),
        new Case(
            "required affinity alone",
            pod().nodeAffinityTerm("zone", "In", "a"),
            "n",
            Map.of("zone", "a"),
            true,
            false),
        new Case(
            "nodeSelector and affinity are ANDed",
            pod().nodeSelector(Map.of("disk", "ssd")).nodeAffinityTerm("zone", "In", "a"),
            "n",
            Map.of("zone", "a"),
            false,
            false),
        new Case(
            "both satisfied",
            pod().nodeSelector(Map.of("disk", "ssd")).nodeAffinityTerm("zone", "In", "a"),
            "n",
            Map.of("zone", "a", "disk", "ssd"),
            true,
            false),
        new Case(
            "affinity terms are ORed",
            pod().nodeAffinityTerm("zone", "In", "a").nodeAffinityTerm("zone", "In", "b"),
            "n",
            Map.of("zone", "b"),
            true,
            false),
        new Case(
            "a required node selector with no terms matches no node",
            pod().requiredNodeAffinity(noTerms),
            "n",
            Map.of(),
            false,
            false),
        new Case(
            "matchFields select by node name",
            pod().nodeFieldTerm("metadata.name", "In", "n1"),
            "n1",
            Map.of(),
            true,
            false),
        new Case(
            "matchFields reject other names",
            pod().nodeFieldTerm("metadata.name", "In", "n1"),
            "n2",
            Map.of(),
            false,
            false),
        new Case(
            "preferred affinity alone is no constraint",
            pod().preferredNodeAffinity(5, "zone", "In", "a"),
            "n",
            Map.of(),
            true,
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(Case c) {
    RequiredNodeAffinity a = RequiredNodeAffinity.of(c.pod().obj());
    assertThat(a.matches(c.node(), c.labels())).isEqualTo(c.matches());
    assertThat(a.isEmpty()).isEqualTo(c.empty());
  }
}
