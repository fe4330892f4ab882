package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.node;
import static io.schedext.plugins.noderesources.ScoreCase.DEFAULT_RESOURCES;
import static io.schedext.plugins.noderesources.ScoreCase.fitArgs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's fit_test.go TestFitScore: each strategy end to end, with and without PreScore. */
class FitScoreTest {

  private static final String RATIO_DOWN =
      "[{\"utilization\":0,\"score\":10},{\"utilization\":100,\"score\":0}]";
  private static final String RATIO_UP =
      "[{\"utilization\":0,\"score\":0},{\"utilization\":100,\"score\":10}]";

  private static List<Node> nodes4000And6000() {
    return List.of(
        node("node1", Map.of("cpu", "4000", "memory", "10000")),
        node("node2", Map.of("cpu", "6000", "memory", "10000")));
  }

  private static List<Pod> existing() {
    return List.of(
        MakePod.pod().node("node1").req(Map.of("cpu", "2000", "memory", "4000")).obj(),
        MakePod.pod().node("node2").req(Map.of("cpu", "1000", "memory", "2000")).obj());
  }

  private static Pod pod(String cpu, String memory) {
    return MakePod.pod().name("p").req(Map.of("cpu", cpu, "memory", memory)).obj();
  }

  static Stream<ScoreCase> cases() {
    Stream.Builder<ScoreCase> b = Stream.builder();
    for (boolean preScore : new boolean[] {true, false}) {
      String suffix = preScore ? "" : ", without PreScore";
      b.add(
          new ScoreCase(
              "RequestedToCapacityRatio with a falling shape prefers emptier nodes" + suffix,
              pod("3000", "5000"),
              nodes4000And6000(),
              existing(),
              fitArgs("RequestedToCapacityRatio", DEFAULT_RESOURCES, RATIO_DOWN),
              preScore,
              List.of(10L, 32L)));
      b.add(
          new ScoreCase(
              "MostAllocated prefers the fuller node" + suffix,
              pod("1000", "2000"),
              nodes4000And6000(),
              existing(),
              fitArgs("MostAllocated", DEFAULT_RESOURCES, null),
              preScore,
              List.of(67L, 36L)));
      b.add(
          new ScoreCase(
              "LeastAllocated prefers the emptier node" + suffix,
              pod("1000", "2000"),
              nodes4000And6000(),
              existing(),
              fitArgs("LeastAllocated", DEFAULT_RESOURCES, null),
              preScore,
              List.of(32L, 63L)));
    }
    b.add(
        new ScoreCase(
            "RequestedToCapacityRatio with a rising shape prefers fuller nodes",
            pod("3000", "5000"),
            nodes4000And6000(),
            existing(),
            fitArgs("RequestedToCapacityRatio", DEFAULT_RESOURCES, RATIO_UP),
            true,
            List.of(95L, 68L)));
    List<Node> same =
        List.of(
            node("node1", Map.of("cpu", "4000", "memory", "10000")),
            node("node2", Map.of("cpu", "4000", "memory", "10000")));
    List<Pod> withSidecar =
        List.of(
            MakePod.pod()
                .node("node1")
                .req(Map.of("cpu", "1000", "memory", "2000"))
                .sidecarReq(Map.of("cpu", "1000", "memory", "2000"))
                .obj(),
            MakePod.pod().node("node2").req(Map.of("cpu", "1000", "memory", "2000")).obj());
    b.add(
        new ScoreCase(
            "MostAllocated counts a running pod's sidecar",
            pod("1000", "2000"),
            same,
            withSidecar,
            fitArgs("MostAllocated", DEFAULT_RESOURCES, null),
            true,
            List.of(67L, 45L)));
    b.add(
        new ScoreCase(
            "LeastAllocated counts a running pod's sidecar",
            pod("1000", "2000"),
            same,
            withSidecar,
            fitArgs("LeastAllocated", DEFAULT_RESOURCES, null),
            true,
            List.of(32L, 55L)));
    List<Pod> resized =
        List.of(
            MakePod.pod()
                .node("node1")
                .req(Map.of("cpu", "1000", "memory", "2000"))
                .statusResources("c0", Map.of("cpu", "3000", "memory", "2000"), null)
                .obj(),
            MakePod.pod().node("node2").req(Map.of("cpu", "1000", "memory", "2000")).obj());
    b.add(
        new ScoreCase(
            "LeastAllocated counts a running pod at the larger requests its status reports",
            pod("1000", "2000"),
            same,
            resized,
            fitArgs("LeastAllocated", DEFAULT_RESOURCES, null),
            true,
            List.of(30L, 55L)));
    // Upstream's Fit scorer has its resize flag shadowed too (kubernetes#141387): the incoming
    // pod's spec counts, whatever its status reports.
    for (boolean preScore : new boolean[] {true, false}) {
      b.add(
          new ScoreCase(
              "Score ignores what the incoming pod's status reports"
                  + (preScore ? "" : ", without PreScore"),
              MakePod.pod()
                  .name("p")
                  .req(Map.of("cpu", "1000", "memory", "2000"))
                  .statusResources("c0", Map.of("cpu", "3000", "memory", "2000"), null)
                  .obj(),
              same,
              withSidecar,
              fitArgs("LeastAllocated", DEFAULT_RESOURCES, null),
              preScore,
              List.of(32L, 55L)));
    }
    b.add(
        new ScoreCase(
            "without arguments LeastAllocated over cpu and memory applies",
            pod("1000", "2000"),
            nodes4000And6000(),
            existing(),
            "{}",
            true,
            List.of(32L, 63L)));
    Pod podLevel = MakePod.pod().name("p").container("busybox").obj();
    ResourceRequirements rr = new ResourceRequirements();
    rr.setRequests(Map.of("cpu", new Quantity("2"), "memory", new Quantity("5000")));
    podLevel.getSpec().setResources(rr);
    // Upstream's Fit scorer has its pod-level flag shadowed (kubernetes#141387): the containers'
    // non-zero defaults count, 100m of 4 cpu and 200Mi over 10000 bytes of memory, as if
    // spec.resources were absent.
    for (boolean preScore : new boolean[] {true, false}) {
      b.add(
          new ScoreCase(
              "Score ignores the incoming pod's pod-level requests, as upstream's scorer does"
                  + (preScore ? "" : ", without PreScore"),
              podLevel,
              List.of(node("node1", Map.of("cpu", "4", "memory", "10000"))),
              List.of(),
              fitArgs("LeastAllocated", DEFAULT_RESOURCES, null),
              preScore,
              List.of(48L)));
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(ScoreCase c) {
    Fit plugin = Fit.create(Fixtures.args(Fit.NAME, c.argsJson()), null);
    assertThat(Fixtures.scores(plugin, c.podInfo(), c.nodeInfos(), c.runPreScore()))
        .isEqualTo(c.want());
  }
}
