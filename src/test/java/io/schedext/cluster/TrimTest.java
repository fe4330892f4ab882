package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
    Trim.object(p);
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
  void aResizedContainerKeepsItsNameAndResourcesAndNothingElse() {
    Pod p =
        MakePod.pod()
            .name("p")
            .node("n1")
            .req(Map.of("cpu", "1"))
            .statusResources("c0", Map.of("cpu", "2"), Map.of("cpu", "1500m"))
            .obj();
    ContainerStatus reported = p.getStatus().getContainerStatuses().get(0);
    reported.setImage("img:1");
    reported.setRestartCount(4);
    reported.getResources().setLimits(Map.of("cpu", new Quantity("4")));
    PodInfo before = PodInfo.of(p);

    Trim.object(p);

    ContainerStatus kept = p.getStatus().getContainerStatuses().get(0);
    assertThat(p.getStatus().getContainerStatuses()).hasSize(1);
    assertThat(kept.getName()).isEqualTo("c0");
    assertThat(kept.getResources().getRequests()).isEqualTo(Map.of("cpu", new Quantity("2")));
    assertThat(kept.getResources().getLimits()).as("not read").isEmpty();
    assertThat(kept.getAllocatedResources()).isEqualTo(Map.of("cpu", new Quantity("1500m")));
    assertThat(kept.getImage()).isNull();
    assertThat(kept.getRestartCount()).isNull();
    assertThat(PodInfo.of(p).request()).isEqualTo(before.request());
    assertThat(PodInfo.of(p).request().milliCpu()).isEqualTo(2000);
  }

  record Case(String name, PodWrapper pod, int kept) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static PodWrapper pod() {
    return MakePod.pod().name("p").node("n1");
  }

  static Stream<Case> statuses() {
    return Stream.of(
        new Case(
            "a status reporting the spec's requests is dropped",
            pod().req(Map.of("cpu", "1")).statusResources("c0", Map.of("cpu", "1000m"), null),
            0),
        new Case(
            "a status reporting and allocating the spec's requests is dropped",
            pod()
                .req(Map.of("cpu", "1"))
                .statusResources("c0", Map.of("cpu", "1"), Map.of("cpu", "1")),
            0),
        new Case(
            "a status reporting the spec's requests is dropped even when the resize is infeasible",
            pod()
                .req(Map.of("cpu", "1"))
                .statusResources("c0", Map.of("cpu", "1"), null)
                .condition("PodResizePending", "Infeasible"),
            0),
        new Case(
            "a status below the spec is kept: an infeasible resize would count it",
            pod().req(Map.of("cpu", "2")).statusResources("c0", Map.of("cpu", "1"), null),
            1),
        new Case(
            "an allocation above the spec is kept",
            pod()
                .req(Map.of("cpu", "1"))
                .statusResources("c0", Map.of("cpu", "1"), Map.of("cpu", "3")),
            1),
        new Case(
            "a status naming a resource the spec does not is kept, even at 0",
            pod()
                .req(Map.of("cpu", "1"))
                .statusResources("c0", Map.of("cpu", "1", "memory", "0"), null),
            1),
        new Case(
            "a status of a plain init container is dropped",
            pod().initReq(Map.of("cpu", "1")).statusResources("init0", Map.of("cpu", "3"), null),
            0),
        new Case(
            "a status of a sidecar is kept",
            pod()
                .sidecarReq(Map.of("cpu", "1"))
                .statusResources("sidecar0", Map.of("cpu", "3"), null),
            1),
        new Case(
            "a status of no container of the spec is dropped",
            pod().req(Map.of("cpu", "1")).statusResources("gone", Map.of("cpu", "3"), null),
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("statuses")
  void onlyStatusesThatChangeTheRequestsAreKept(Case c) {
    Pod p = c.pod().obj();
    PodInfo before = PodInfo.of(p);

    Trim.object(p);

    List<ContainerStatus> kept = new ArrayList<>();
    if (p.getStatus().getContainerStatuses() != null) {
      kept.addAll(p.getStatus().getContainerStatuses());
    }
    if (p.getStatus().getInitContainerStatuses() != null) {
      kept.addAll(p.getStatus().getInitContainerStatuses());
    }
    assertThat(kept).hasSize(c.kept());
    PodInfo after = PodInfo.of(p);
    assertThat(after.request()).isEqualTo(before.request());
    assertThat(after.nonZeroMilliCpu()).isEqualTo(before.nonZeroMilliCpu());
    assertThat(after.nonZeroMemory()).isEqualTo(before.nonZeroMemory());
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
    Trim.object(n);
    assertThat(n.getStatus().getConditions()).isNull();
    assertThat(n.getStatus().getImages()).hasSize(1);
    assertThat(n.getStatus().getAllocatable()).containsKey("cpu");
    assertThat(n.getSpec().getTaints()).hasSize(1);
  }
}
