package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The amounts a node info keeps in its own fields for the per-node loops answer what its resources
 * and pod list answer, after every kind of change: pods added and removed (by UID and by instance),
 * a sum past the long range, the node replaced or removed, a snapshot copy.
 */
class NodeInfoHotFieldsTest {

  private static PodInfo pod(String name, String cpu, String memory) {
    return MakePod.pod()
        .name(name)
        .namespace("hot")
        .uid(name)
        .node("n")
        .req(Map.of("cpu", cpu, "memory", memory))
        .info();
  }

  private static final PodInfo SMALL = pod("small", "250m", "1Gi");
  private static final PodInfo NO_REQUESTS =
      MakePod.pod().name("none").namespace("hot").uid("none").node("n").req(Map.of()).info();

  /** Beyond the long range in memory when two are placed: the sums saturate. */
  private static final PodInfo HUGE = pod("huge", "1", "8Ei");

  private static final PodInfo HUGE_TOO = pod("huge-too", "1", "8Ei");

  /** One change to a node info. */
  private record Case(String name, Consumer<NodeInfo> change) {}

  @Test
  void theKeptAmountsAnswerAsTheResourcesAndPodsAfterEveryChange() {
    List<Case> cases =
        List.of(
            new Case("nothing", n -> {}),
            new Case("a pod added", n -> n.addPod(SMALL)),
            new Case("a pod without requests added", n -> n.addPod(NO_REQUESTS)),
            new Case("removed by UID", n -> n.removePod("small")),
            new Case("removed by instance", n -> n.removePod(NO_REQUESTS)),
            new Case("an unknown UID removed", n -> n.removePod("nobody")),
            new Case("sums past the long range", n -> n.addPod(HUGE)),
            new Case("and more", n -> n.addPod(HUGE_TOO)),
            new Case("and back", n -> n.removePod(HUGE_TOO)),
            new Case(
                "the node replaced with other allocatable amounts",
                n ->
                    n.setNode(
                        MakeNode.node()
                            .name("n")
                            .capacity(Map.of("cpu", "3", "memory", "5Gi", "pods", "7"))
                            .obj())),
            new Case(
                "the node replaced with PreferNoSchedule taints",
                n ->
                    n.setNode(
                        MakeNode.node()
                            .name("n")
                            .capacity(Map.of("cpu", "3", "memory", "5Gi", "pods", "7"))
                            .taint("a", "1", "PreferNoSchedule")
                            .taint("b", "2", "NoSchedule")
                            .taint("c", "3", "PreferNoSchedule")
                            .obj())),
            new Case("the node removed", NodeInfo::removeNode));
    NodeInfo n =
        MakeNode.node()
            .name("n")
            .capacity(Map.of("cpu", "8", "memory", "32Gi", "pods", "110"))
            .info();
    for (Case c : cases) {
      c.change().accept(n);
      assertKeptAsResources(c.name(), n);
      assertKeptAsResources(c.name() + ", its snapshot copy", n.snapshotCopy());
    }
    assertThat(n.requestedMemory()).isEqualTo(Long.MAX_VALUE);
    assertThat(n.allocatableMilliCpu()).isEqualTo(3000);
    assertThat(n.allowedPodNumber()).isEqualTo(7);
    assertThat(n.preferNoScheduleTaintCount()).isEqualTo(2);
  }

  @Test
  void theImageBitsHoldTheBitOfEveryImageOnTheNodeAndSurviveACopy() {
    NodeInfo n = MakeNode.node().name("n").info();
    assertThat(n.imageBits()).isZero();

    n.setImageStates(
        Map.of(
            "registry.example/a:1", new ImageStateSummary(10, 1),
            "registry.example/b:2", new ImageStateSummary(20, 2)));

    long both =
        NodeInfo.imageBit("registry.example/a:1") | NodeInfo.imageBit("registry.example/b:2");
    assertThat(n.imageBits()).isEqualTo(both);
    assertThat(n.snapshotCopy().imageBits()).isEqualTo(both);
    n.setImageStates(null);
    assertThat(n.imageBits()).isZero();
  }

  private static void assertKeptAsResources(String when, NodeInfo n) {
    assertThat(n.requestedMilliCpu()).as(when).isEqualTo(n.requested().milliCpu());
    assertThat(n.requestedMemory()).as(when).isEqualTo(n.requested().memory());
    assertThat(n.nonZeroRequestedMilliCpu()).as(when).isEqualTo(n.nonZeroRequested().milliCpu());
    assertThat(n.nonZeroRequestedMemory()).as(when).isEqualTo(n.nonZeroRequested().memory());
    assertThat(n.allocatableMilliCpu()).as(when).isEqualTo(n.allocatable().milliCpu());
    assertThat(n.allocatableMemory()).as(when).isEqualTo(n.allocatable().memory());
    assertThat(n.allowedPodNumber()).as(when).isEqualTo(n.allocatable().allowedPodNumber());
    assertThat(n.podCount()).as(when).isEqualTo(n.pods().size());
    assertThat(n.preferNoScheduleTaintCount())
        .as(when)
        .isEqualTo(n.preferNoScheduleTaints().size());
  }
}
