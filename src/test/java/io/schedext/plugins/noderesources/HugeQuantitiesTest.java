package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The largest quantities the API server accepts (cpu 9223372036854775 cores, i.e. Long.MAX_VALUE
 * millicores rounded down to whole cores; memory 8Ei = 2^63 bytes) in requests and in allocatable.
 * Upstream adds and multiplies them in int64, which wraps around: BalancedAllocation then returns
 * an invalid negative score (the scheduling cycle fails), LeastAllocated and MostAllocated a wrong
 * one. Here the sums saturate and the per-resource scaling is exact, so every score is what
 * upstream's formula gives in exact arithmetic.
 */
class HugeQuantitiesTest {

  private static final String HUGE_CPU = "9223372036854775";
  private static final String HUGE_MEMORY = "8Ei";

  /**
   * One plugin's scores on the given nodes.
   *
   * @param name the behaviour
   * @param plugin NodeResourcesFit or NodeResourcesBalancedAllocation
   * @param args the plugin's args
   * @param pod the incoming pod
   * @param nodes the nodes, each with a pod requesting 1 cpu and 1Gi
   * @param want the scores, in node order
   */
  record Case(String name, String plugin, String args, Pod pod, List<Node> nodes, List<Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Pod huge() {
    return MakePod.pod().name("huge").req(Map.of("cpu", HUGE_CPU, "memory", HUGE_MEMORY)).obj();
  }

  private static Pod oneCpu() {
    return MakePod.pod().name("one").req(Map.of("cpu", "1", "memory", "1Gi")).obj();
  }

  private static List<Node> small() {
    return List.of(node("small", Map.of("cpu", "4", "memory", "8Gi")));
  }

  private static List<Node> enormous() {
    return List.of(node("enormous", Map.of("cpu", HUGE_CPU, "memory", HUGE_MEMORY)));
  }

  private static String fit(String strategy) {
    return "{\"scoringStrategy\":{\"type\":\""
        + strategy
        + "\",\"resources\":[{\"name\":\"cpu\",\"weight\":1},"
        + "{\"name\":\"memory\",\"weight\":1}]"
        + (strategy.equals("RequestedToCapacityRatio")
            ? ",\"requestedToCapacityRatio\":{\"shape\":[{\"utilization\":0,\"score\":0},{\"utilization\":100,"
                + "\"score\":10}]}"
            : "")
        + "}}";
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "BalancedAllocation: a huge pod fills every resource, so it is perfectly balanced with it",
            BalancedAllocation.NAME,
            "{}",
            huge(),
            small(),
            List.of(100L)),
        new Case(
            "LeastAllocated: a huge pod leaves nothing free",
            Fit.NAME,
            fit("LeastAllocated"),
            huge(),
            small(),
            List.of(0L)),
        new Case(
            "MostAllocated: a huge pod fills the node",
            Fit.NAME,
            fit("MostAllocated"),
            huge(),
            small(),
            List.of(100L)),
        new Case(
            "RequestedToCapacityRatio: a huge pod is past the last point of the shape",
            Fit.NAME,
            fit("RequestedToCapacityRatio"),
            huge(),
            small(),
            List.of(100L)),
        new Case(
            "LeastAllocated: an enormous node with 2 cores requested is 99% free",
            Fit.NAME, fit("LeastAllocated"), oneCpu(), enormous(), List.of(99L)),
        new Case(
            "MostAllocated: an enormous node with 2 cores requested is 0% used",
            Fit.NAME, fit("MostAllocated"), oneCpu(), enormous(), List.of(0L)),
        new Case(
            "BalancedAllocation: a huge pod on an enormous node fills every resource too",
            BalancedAllocation.NAME,
            "{}",
            huge(),
            enormous(),
            List.of(100L)),
        new Case(
            "LeastAllocated: a huge pod on an enormous node leaves nothing free",
            Fit.NAME,
            fit("LeastAllocated"),
            huge(),
            enormous(),
            List.of(0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scoresStayInRangeAndFollowTheFormula(Case c) {
    List<Pod> existing =
        c.nodes().stream()
            .map(
                n ->
                    MakePod.pod()
                        .name("running-" + n.getMetadata().getName())
                        .node(n.getMetadata().getName())
                        .req(Map.of("cpu", "1", "memory", "1Gi"))
                        .obj())
            .toList();
    List<NodeInfo> infos = Fixtures.infos(c.nodes(), existing);
    List<Long> scores =
        c.plugin().equals(Fit.NAME)
            ? Fixtures.scores(
                Fit.create(Fixtures.args(Fit.NAME, c.args()), null),
                PodInfo.of(c.pod()),
                infos,
                true)
            : Fixtures.scores(
                BalancedAllocation.create(Fixtures.args(BalancedAllocation.NAME, c.args()), null),
                PodInfo.of(c.pod()),
                infos,
                true);
    assertThat(scores).isEqualTo(c.want());
  }
}
