package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the informers drop before caching, and that nothing a plugin reads is lost. */
class TrimTest {

  @Test
  void podsLoseWhatNoPluginReadsAndKeepWhatTheyDo() {
    Pod p =
        MakePod.pod()
            .name("p")
            .node("n1")
            .req(Map.of("cpu", "1"))
            .hostPort("TCP", "", 80)
            .toleration("k", "Exists", null, "NoSchedule")
            .pvc("data")
            .label("app", "x")
            .annotation("kubectl.kubernetes.io/last-applied-configuration", "{}")
            .annotation("keep", "me")
            .obj();
    p.getMetadata().setManagedFields(List.of(new ManagedFieldsEntry()));
    p.getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("A", "b", null)));
    p.getStatus().setContainerStatuses(List.of(new ContainerStatus()));
    p.getStatus().setConditions(List.of(new PodCondition()));
    PodInfo before = PodInfo.of(p);
    KubernetesCluster.trim(p);
    assertThat(p.getMetadata().getManagedFields()).isNull();
    assertThat(p.getMetadata().getAnnotations()).containsOnlyKeys("keep");
    assertThat(p.getSpec().getContainers().get(0).getEnv()).isNull();
    assertThat(p.getStatus().getContainerStatuses()).isNull();
    assertThat(p.getStatus().getConditions()).as("preemption reads DisruptionTarget").hasSize(1);
    PodInfo after = PodInfo.of(p);
    assertThat(after.request()).isEqualTo(before.request());
    assertThat(after.hostPorts()).isEqualTo(before.hostPorts());
    assertThat(after.pvcKeys()).isEqualTo(before.pvcKeys());
    assertThat(p.getSpec().getTolerations()).hasSize(1);
  }

  @Test
  void nodesKeepImagesTaintsAndAllocatable() {
    Node n =
        MakeNode.node()
            .name("n1")
            .capacity(Map.of("cpu", "4"))
            .taint("k", "v", "NoSchedule")
            .image(100, "img:1")
            .obj();
    n.getStatus().setConditions(List.of(new NodeCondition()));
    KubernetesCluster.trim(n);
    assertThat(n.getStatus().getConditions()).isNull();
    assertThat(n.getStatus().getImages()).hasSize(1);
    assertThat(n.getStatus().getAllocatable()).containsKey("cpu");
    assertThat(n.getSpec().getTaints()).hasSize(1);
  }
}
