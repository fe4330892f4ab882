package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's balanced_allocation_test.go (without the DRA rows): (1 − standard deviation of the
 * used fractions) × 100, as v1.34.9 scores.
 */
class BalancedAllocationTest {

  private static final String GPU = "nvidia.com/gpu";
  private static final String WITH_GPU =
      "{\"resources\":[{\"name\":\"cpu\",\"weight\":1},"
          + "{\"name\":\"memory\",\"weight\":1},{\"name\":\"nvidia.com/gpu\",\"weight\":1}]}";

  private static Pod cpuOnly(String node) {
    return MakePod.pod()
        .node(node)
        .req(Map.of("cpu", "1000m", "memory", "0"))
        .req(Map.of("cpu", "2000m", "memory", "0"))
        .obj();
  }

  private static Pod cpuAndMemory(String node) {
    return MakePod.pod()
        .node(node)
        .req(Map.of("cpu", "1000m", "memory", "2000"))
        .req(Map.of("cpu", "2000m", "memory", "3000"))
        .obj();
  }

  private static Pod cpuAndMemoryAndGpu(String node) {
    return MakePod.pod()
        .node(node)
        .req(Map.of("cpu", "1000m", "memory", "2000"))
        .req(Map.of("cpu", "2000m", "memory", "3000", GPU, "3"))
        .obj();
  }

  private static List<Node> nodes(long cpu1, long mem1, long cpu2, long mem2) {
    return List.of(node("node1", cpu1, mem1, Map.of()), node("node2", cpu2, mem2, Map.of()));
  }

  static ScoreCase c(
      String name,
      Pod pod,
      List<Node> nodes,
      List<Pod> existing,
      String args,
      boolean preScore,
      Long... want) {
    return new ScoreCase(name, pod, nodes, existing, args, preScore, List.of(want));
  }

  static Stream<ScoreCase> cases() {
    return Stream.of(
        c(
            "an empty node stays balanced only if the pod matches its cpu to memory ratio",
            cpuAndMemory("node2"),
            nodes(4000, 10000, 6000, 10000),
            List.of(),
            "{}",
            true,
            87L,
            100L),
        c(
            "what the nodes already run counts with its real requests",
            cpuAndMemory("node2"),
            nodes(10000, 20000, 10000, 20000),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            "{}",
            true,
            82L,
            95L),
        c(
            "differently sized nodes compare their fractions",
            cpuAndMemory("node2"),
            nodes(10000, 20000, 10000, 50000),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            "{}",
            true,
            82L,
            80L),
        c(
            "a fraction over 1 is capped at 1",
            cpuOnly("node1"),
            nodes(6000, 10000, 6000, 10000),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            "{}",
            true,
            50L,
            75L),
        c(
            "three resources use the population standard deviation",
            MakePod.pod().name("p").req(Map.of("memory", "0", GPU, "1")).obj(),
            List.of(
                node("node1", 3500, 40000, Map.of(GPU, 8L)),
                node("node2", 3500, 40000, Map.of(GPU, 8L))),
            List.of(cpuAndMemory("node2"), cpuAndMemoryAndGpu("node1")),
            WITH_GPU,
            true,
            70L,
            65L),
        c(
            "a scalar resource the pod does not request is left out",
            cpuAndMemory("node2"),
            List.of(
                node("node1", 3500, 40000, Map.of(GPU, 8L)), node("node2", 3500, 40000, Map.of())),
            List.of(),
            WITH_GPU,
            true,
            63L,
            63L),
        c(
            "Score computes the requests itself when PreScore did not run",
            cpuAndMemory("node2"),
            nodes(10000, 20000, 10000, 20000),
            List.of(cpuOnly("node1"), cpuAndMemory("node2")),
            "{}",
            false,
            82L,
            95L),
        c(
            "without PreScore a best-effort pod scores 0",
            MakePod.pod().name("p").obj(),
            nodes(4000, 10000, 4000, 10000),
            List.of(),
            "{}",
            false,
            0L,
            0L),
        c(
            "a node without any of the resources has no deviation and scores 100",
            MakePod.pod().name("p").req(Map.of("cpu", "1")).obj(),
            List.of(node("node1", 0, 0, Map.of())),
            List.of(),
            "{}",
            true,
            100L),
        c(
            "the balance with the pod is what counts, not the change it makes",
            MakePod.pod().name("p").req(Map.of("memory", "5000")).obj(),
            nodes(3000, 5000, 3000, 5000),
            List.of(cpuOnly("node1")),
            "{}",
            true,
            100L,
            50L));
  }

  private static Pod quarter(String node, String statusCpu) {
    return MakePod.pod()
        .node(node)
        .req(Map.of("cpu", "1000m", "memory", "2500"))
        .statusResources("c0", Map.of("cpu", statusCpu, "memory", "2500"), null)
        .obj();
  }

  /**
   * In-place resize (on by default since 1.33): pods on the nodes and the incoming pod count at the
   * larger of spec and status, or at the status alone when the resize is infeasible.
   */
  static Stream<ScoreCase> resized() {
    Pod infeasible =
        MakePod.pod()
            .node("node2")
            .req(Map.of("cpu", "3000m", "memory", "2500"))
            .statusResources("c0", Map.of("cpu", "1000m", "memory", "2500"), null)
            .condition("PodResizePending", "Infeasible")
            .obj();
    return Stream.of(
        c(
            "a pod on the node counts the larger cpu its status reports",
            MakePod.pod().name("p").req(Map.of("cpu", "1000m", "memory", "2500")).obj(),
            nodes(4000, 10000, 4000, 10000),
            List.of(quarter("node1", "1000m"), quarter("node2", "3000m")),
            "{}",
            true,
            100L,
            75L),
        c(
            "a pod on the node whose resize is infeasible counts its status, not its spec",
            MakePod.pod().name("p").req(Map.of("cpu", "1000m", "memory", "2500")).obj(),
            nodes(4000, 10000, 4000, 10000),
            List.of(quarter("node1", "1000m"), infeasible),
            "{}",
            true,
            100L,
            100L),
        c(
            "the incoming pod counts the larger cpu its status reports",
            quarter("", "3000m"),
            nodes(4000, 10000, 4000, 10000),
            List.of(),
            "{}",
            true,
            75L,
            75L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"cases", "resized"})
  void score(ScoreCase c) {
    BalancedAllocation plugin =
        BalancedAllocation.create(Fixtures.args(BalancedAllocation.NAME, c.argsJson()), null);
    assertThat(Fixtures.scores(plugin, c.podInfo(), c.nodeInfos(), c.runPreScore()))
        .isEqualTo(c.want());
  }

  @Test
  void podLevelRequestsCountSoSuchAPodIsNotBestEffort() {
    BalancedAllocation plugin = BalancedAllocation.create(null, null);
    Pod pod = MakePod.pod().name("p").container("busybox").obj();
    ResourceRequirements rr = new ResourceRequirements();
    rr.setRequests(Map.of("cpu", new Quantity("2"), "memory", new Quantity("5000")));
    pod.getSpec().setResources(rr);
    List<NodeInfo> infos = Fixtures.infos(List.of(node("node1", 4000, 20000, Map.of())), List.of());
    assertThat(Fixtures.scores(plugin, PodInfo.of(pod), infos, true)).containsExactly(87L);
  }

  @Test
  void preScoreSkipsABestEffortPod() {
    BalancedAllocation plugin = BalancedAllocation.create(null, null);
    List<NodeInfo> infos = Fixtures.infos(nodes(4000, 10000, 4000, 10000), List.of());
    CycleState state = TestFrameworks.cycleState(infos);
    PodInfo pod = MakePod.pod().name("p").container("busybox").info();
    assertThat(plugin.preScore(state, pod, infos)).isEqualTo(Status.skip());
    assertThat(state.readOrNull(BalancedAllocation.PRE_SCORE_STATE_KEY)).isNull();
  }

  @Test
  void aPodRequestingOnlyAnUnconfiguredResourceIsBestEffortToo() {
    BalancedAllocation plugin = BalancedAllocation.create(null, null);
    List<NodeInfo> infos = Fixtures.infos(nodes(4000, 10000, 4000, 10000), List.of());
    PodInfo pod = MakePod.pod().name("p").req(Map.of(GPU, "1")).info();
    assertThat(plugin.preScore(TestFrameworks.cycleState(infos), pod, infos))
        .isEqualTo(Status.skip());
  }
}
