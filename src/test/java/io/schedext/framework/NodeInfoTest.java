package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.framework.HostPortInfo.ProtocolPort;
import io.schedext.kube.PodRequests;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-node aggregation of {@link NodeInfo}, as upstream's TestNewNodeInfo, TestNodeInfoAddPod and
 * RemovePod.
 */
class NodeInfoTest {

  private static final Map<String, String> OVERHEAD = Map.of("cpu", "500m", "memory", "500");

  private static PodWrapper pod(String name) {
    return MakePod.pod().name(name).namespace("node_info_cache_test").uid(name).node("test-node");
  }

  private static final PodInfo P1 =
      pod("pod1")
          .req(Map.of("cpu", "100m", "memory", "500"))
          .hostPort("TCP", "127.0.0.1", 80)
          .overhead(OVERHEAD)
          .pvc("pvc-1")
          .info();
  private static final PodInfo P2 =
      pod("pod2")
          .req(Map.of("cpu", "200m", "memory", "1Ki"))
          .hostPort("TCP", "127.0.0.1", 8080)
          .overhead(OVERHEAD)
          .pvc("pvc-1")
          .pvc("pvc-2")
          .info();

  /**
   * A container without requests: 100m and 200Mi in the non-zero requests, plus the overhead in
   * both.
   */
  private static final PodInfo P3 = pod("pod3").req(Map.of()).overhead(OVERHEAD).info();

  private static Resource res(long milliCpu, long memory) {
    return new Resource(milliCpu, memory, 0, 0);
  }

  @Test
  void addingPodsAddsRequestsNonZeroRequestsPortsAndPvcReferences() {
    NodeInfo n = MakeNode.node().name("test-node").info(P1, P2, P3);

    assertThat(n.pods()).containsExactly(P1, P2, P3);
    assertThat(n.requested()).isEqualTo(res(600 + 700 + 500, 1000 + 1524 + 500));
    assertThat(n.nonZeroRequested())
        .isEqualTo(res(600 + 700 + 600, 1000 + 1524 + PodRequests.DEFAULT_MEMORY_REQUEST + 500));
    assertThat(n.usedPorts().entries())
        .isEqualTo(
            Map.of(
                "127.0.0.1", Set.of(new ProtocolPort("TCP", 80), new ProtocolPort("TCP", 8080))));
    assertThat(n.pvcRefCounts())
        .isEqualTo(Map.of("node_info_cache_test/pvc-1", 2, "node_info_cache_test/pvc-2", 1));
    assertThat(n.podsWithAffinity()).isEmpty();
    assertThat(n.podsWithRequiredAntiAffinity()).isEmpty();
  }

  @Test
  void removingAPodUndoesItsAccountingAndSwapsTheLastPodIntoItsPlace() {
    NodeInfo n = MakeNode.node().name("test-node").info(P1, P2, P3);
    long generation = n.generation();

    assertThat(n.removePod("pod1")).isSameAs(P1);

    assertThat(n.pods()).containsExactly(P3, P2);
    assertThat(n.requested()).isEqualTo(res(700 + 500, 1524 + 500));
    assertThat(n.nonZeroRequested())
        .isEqualTo(res(700 + 600, 1524 + PodRequests.DEFAULT_MEMORY_REQUEST + 500));
    assertThat(n.usedPorts().entries())
        .isEqualTo(Map.of("127.0.0.1", Set.of(new ProtocolPort("TCP", 8080))));
    assertThat(n.pvcRefCounts())
        .isEqualTo(Map.of("node_info_cache_test/pvc-1", 1, "node_info_cache_test/pvc-2", 1));
    assertThat(n.generation()).isGreaterThan(generation);

    n.removePod("pod2");
    n.removePod("pod3");
    assertThat(n.pods()).isEmpty();
    assertThat(n.requested()).isEqualTo(res(0, 0));
    assertThat(n.nonZeroRequested()).isEqualTo(res(0, 0));
    assertThat(n.usedPorts().entries()).isEmpty();
    assertThat(n.pvcRefCounts()).isEmpty();
  }

  @Test
  void removingAPodTheNodeDoesNotHoldChangesNothing() {
    NodeInfo n = MakeNode.node().name("test-node").info(P1);
    long generation = n.generation();

    assertThat(n.removePod("unknown")).isNull();

    assertThat(n.pods()).containsExactly(P1);
    assertThat(n.requested()).isEqualTo(res(600, 1000));
    assertThat(n.generation()).isEqualTo(generation);
  }

  @Test
  void podsWithAffinityAndRequiredAntiAffinityAreTrackedAndRemoved() {
    PodInfo preferred = pod("preferred").preferredPodAffinityIn(10, "zone", "app", "web").info();
    PodInfo requiredAnti = pod("required-anti").podAntiAffinityIn("zone", "app", "web").info();
    PodInfo preferredAnti =
        pod("preferred-anti").preferredPodAntiAffinityIn(5, "zone", "app", "web").info();
    PodInfo brokenAnti =
        pod("broken-anti")
            .podAntiAffinityTerm(PodWrapper.affinityTerm("zone", "Bad", "app", "x"))
            .info();
    PodInfo plain = pod("plain").info();
    NodeInfo n =
        MakeNode.node()
            .name("test-node")
            .info(preferred, requiredAnti, preferredAnti, brokenAnti, plain);

    assertThat(n.podsWithAffinity())
        .containsExactly(preferred, requiredAnti, preferredAnti, brokenAnti);
    assertThat(n.podsWithRequiredAntiAffinity())
        .as("a pod whose required term fails to compile still counts, by its spec")
        .containsExactly(requiredAnti, brokenAnti);

    n.removePod("preferred");
    n.removePod("required-anti");
    assertThat(n.podsWithAffinity()).containsExactlyInAnyOrder(preferredAnti, brokenAnti);
    assertThat(n.podsWithRequiredAntiAffinity()).containsExactly(brokenAnti);
  }

  @Test
  void removingAHeldInfoByIdentityEndsAsRemovingItsUidDoes() {
    PodInfo preferred = pod("preferred").preferredPodAffinityIn(10, "zone", "app", "web").info();
    PodInfo requiredAnti = pod("required-anti").podAntiAffinityIn("zone", "app", "web").info();
    PodInfo plain = pod("plain").info();
    PodInfo[] all = {P1, preferred, P2, requiredAnti, plain, P3};
    for (PodInfo victim : all) {
      NodeInfo byUid = MakeNode.node().name("n").info(all);
      NodeInfo byInstance = MakeNode.node().name("n").info(all);
      // An equal pod built again: another instance with the same UID.
      NodeInfo byOtherInstance = MakeNode.node().name("n").info(all);
      PodInfo again = PodInfo.of(victim.pod());

      assertThat(byUid.removePod(victim.uid())).isSameAs(victim);
      assertThat(byInstance.removePod(victim)).isSameAs(victim);
      assertThat(byOtherInstance.removePod(again)).isSameAs(victim);
      for (NodeInfo n : List.of(byInstance, byOtherInstance)) {
        assertThat(n.pods()).as(victim.uid()).containsExactlyElementsOf(byUid.pods());
        assertThat(n.podsWithAffinity()).containsExactlyElementsOf(byUid.podsWithAffinity());
        assertThat(n.podsWithRequiredAntiAffinity())
            .containsExactlyElementsOf(byUid.podsWithRequiredAntiAffinity());
        assertThat(n.requested()).isEqualTo(byUid.requested());
        assertThat(n.nonZeroRequested()).isEqualTo(byUid.nonZeroRequested());
        assertThat(n.usedPorts().entries()).isEqualTo(byUid.usedPorts().entries());
        assertThat(n.pvcRefCounts()).isEqualTo(byUid.pvcRefCounts());
      }
    }
    NodeInfo n = MakeNode.node().name("n").info(P1);
    long generation = n.generation();
    assertThat(n.removePod(P2)).isNull();
    assertThat(n.generation()).isEqualTo(generation);
  }

  @Test
  void everyChangeTakesANewGeneration() {
    NodeInfo n = new NodeInfo();
    long g0 = n.generation();
    n.setNode(MakeNode.node().name("n").obj());
    long g1 = n.generation();
    n.addPod(P1);
    long g2 = n.generation();
    n.removePod(P1.uid());
    long g3 = n.generation();
    n.removeNode();
    long g4 = n.generation();

    assertThat(List.of(g0, g1, g2, g3, g4)).isSorted().doesNotHaveDuplicates();
    assertThat(NodeInfo.nextGeneration()).isGreaterThan(g4);
  }

  @Test
  void setNodeReadsNameLabelsTaintsUnschedulableAndAllocatable() {
    Node node =
        MakeNode.node()
            .name("n")
            .label("k", "v")
            .taint("key", "value", "NoSchedule")
            .unschedulable(true)
            .allocatable(
                Map.of(
                    "cpu",
                    "1500m",
                    "memory",
                    "1Gi",
                    "ephemeral-storage",
                    "10Gi",
                    "pods",
                    "110",
                    "example.com/gpu",
                    "2",
                    "hugepages-2Mi",
                    "4Mi",
                    "storage",
                    "1Ti"))
            .obj();

    NodeInfo n = NodeInfo.of(node);

    assertThat(n.node()).isSameAs(node);
    assertThat(n.name()).isEqualTo("n");
    assertThat(n.labels()).isEqualTo(Map.of("k", "v"));
    assertThat(n.taints()).hasSize(1);
    assertThat(n.unschedulable()).isTrue();
    Resource want = new Resource(1500, 1L << 30, 10L << 30, 110);
    want.setScalar("example.com/gpu", 2);
    want.setScalar("hugepages-2Mi", 4L << 20);
    assertThat(n.allocatable()).isEqualTo(want);
  }

  @Test
  void aNodeLessEntryHasNoNameLabelsOrTaints() {
    NodeInfo n = new NodeInfo();
    n.addPod(P1);

    assertThat(n.node()).isNull();
    assertThat(n.name()).isNull();
    assertThat(n.labels()).isEmpty();
    assertThat(n.taints()).isEmpty();
    assertThat(n.unschedulable()).isFalse();
    assertThat(n.allocatable()).isEqualTo(res(0, 0));
    assertThat(n.imageStates()).isEmpty();
  }

  @Test
  void removeNodeKeepsThePods() {
    NodeInfo n = MakeNode.node().name("n").info(P1);
    n.removeNode();
    assertThat(n.node()).isNull();
    assertThat(n.pods()).containsExactly(P1);
    assertThat(n.requested()).isEqualTo(res(600, 1000));
  }

  @Test
  void aSnapshotCopyIsIndependentOfItsOriginal() {
    NodeInfo original = MakeNode.node().name("n").info(P1);
    original.setImageStates(Map.of("img", new ImageStateSummary(10, 1)));
    NodeInfo copy = original.snapshotCopy();
    assertThat(copy.generation()).isEqualTo(original.generation());
    assertThat(copy.imageStates()).isEqualTo(original.imageStates());

    copy.addPod(P2);
    copy.addPod(pod("anti").podAntiAffinityIn("zone", "app", "web").info());
    copy.removePod(P1.uid());

    assertThat(original.pods()).containsExactly(P1);
    assertThat(original.requested()).isEqualTo(res(600, 1000));
    assertThat(original.nonZeroRequested()).isEqualTo(res(600, 1000));
    assertThat(original.usedPorts().entries())
        .isEqualTo(Map.of("127.0.0.1", Set.of(new ProtocolPort("TCP", 80))));
    assertThat(original.pvcRefCounts()).isEqualTo(Map.of("node_info_cache_test/pvc-1", 1));
    assertThat(original.podsWithAffinity()).isEmpty();
    assertThat(original.podsWithRequiredAntiAffinity()).isEmpty();
    assertThat(copy.generation()).isGreaterThan(original.generation());
  }

  @Test
  void setImageStatesAcceptsNullAsEmpty() {
    NodeInfo n = new NodeInfo();
    n.setImageStates(null);
    assertThat(n.imageStates()).isEmpty();
  }

  @Test
  void labelReadsTheSameValuesAsTheLabelMap() {
    NodeInfo n =
        MakeNode.node()
            .name("n1")
            .label(NodeInfo.LABEL_ZONE, new String("zone-a"))
            .label(NodeInfo.LABEL_HOSTNAME, "host-1")
            .label("disktype", "ssd")
            .info();
    NodeInfo other =
        MakeNode.node().name("n2").label(NodeInfo.LABEL_ZONE, new String("zone-a")).info();

    for (String key :
        List.of(
            NodeInfo.LABEL_ZONE,
            NodeInfo.LABEL_HOSTNAME,
            "disktype",
            "missing",
            new String(NodeInfo.LABEL_ZONE))) {
      assertThat(n.label(key)).as(key).isEqualTo(n.labels().get(key));
      assertThat(n.snapshotCopy().label(key)).as("copy, " + key).isEqualTo(n.labels().get(key));
    }
    assertThat(n.label(NodeInfo.LABEL_ZONE))
        .as("zone values are shared instances")
        .isSameAs(other.label(NodeInfo.LABEL_ZONE));
    assertThat(other.label(NodeInfo.LABEL_HOSTNAME)).isNull();

    n.setNode(MakeNode.node().name("n1").label(NodeInfo.LABEL_ZONE, "zone-b").obj());
    assertThat(n.label(NodeInfo.LABEL_ZONE))
        .as("a new node object replaces them")
        .isEqualTo("zone-b");
    assertThat(n.label(NodeInfo.LABEL_HOSTNAME)).isNull();
  }

  @Test
  void taintsAreKeptByEffectInTheNodesOrder() {
    NodeInfo n =
        MakeNode.node()
            .name("n1")
            .taint("a", "1", "NoSchedule")
            .taint("b", "2", "PreferNoSchedule")
            .taint("c", "3", new String("NoExecute"))
            .taint("d", "4", new String("PreferNoSchedule"))
            .taint("e", "5", "SomethingElse")
            .info();

    assertThat(n.noScheduleTaints())
        .extracting(io.fabric8.kubernetes.api.model.Taint::getKey)
        .containsExactly("a", "c");
    assertThat(n.preferNoScheduleTaints())
        .extracting(io.fabric8.kubernetes.api.model.Taint::getKey)
        .containsExactly("b", "d");
    assertThat(n.taints()).hasSize(5);
    assertThat(n.snapshotCopy().noScheduleTaints()).isEqualTo(n.noScheduleTaints());

    n.setNode(MakeNode.node().name("n1").obj());
    assertThat(n.noScheduleTaints()).as("a new node object replaces them").isEmpty();
    assertThat(n.preferNoScheduleTaints()).isEmpty();
  }
}
