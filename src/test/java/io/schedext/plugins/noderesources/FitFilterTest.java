package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.resourcePod;
import static io.schedext.plugins.noderesources.Fixtures.withInit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.noderesources.Fixtures.Res;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's fit_test.go Filter tables: TestEnoughRequests, TestNotEnoughRequests,
 * TestStorageRequests, sidecars.
 */
class FitFilterTest {

  private static final String A = "example.com/aaa";
  private static final String B = "example.com/bbb";
  private static final String K8S_A = "kubernetes.io/something";
  private static final String K8S_B = "subdomain.kubernetes.io/something";
  private static final String HUGE = "hugepages-2Mi";

  record Case(String name, PodInfo pod, NodeInfo node, String argsJson, Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Status unschedulable(String... reasons) {
    return Status.unschedulable(reasons).withPlugin(Fit.NAME);
  }

  private static Status unresolvable(String... reasons) {
    return Status.unresolvable(reasons).withPlugin(Fit.NAME);
  }

  private static String insufficient(String resource) {
    return "Insufficient " + resource;
  }

  /**
   * Allocatable cpu 10m, memory 20, 32 pods, 5 example.com/aaa, ephemeral storage 20, 5
   * hugepages-2Mi.
   */
  private static NodeInfo node(Res used) {
    return nodeWith(
        Map.of(
            "cpu",
            "10m",
            "memory",
            "20",
            "pods",
            "32",
            A,
            "5",
            "ephemeral-storage",
            "20",
            HUGE,
            "5"),
        used);
  }

  private static NodeInfo nodeWith(Map<String, String> allocatable, Res used) {
    return MakeNode.node()
        .name("n")
        .capacity(allocatable)
        .info(resourcePod(used).name("existing").info());
  }

  private static Case fits(String name, PodWrapper pod, Res used) {
    return new Case(name, pod.info(), node(used), "{}", Status.success());
  }

  private static Case fails(String name, PodWrapper pod, Res used, Status want) {
    return new Case(name, pod.info(), node(used), "{}", want);
  }

  static Stream<Case> enoughRequests() {
    return Stream.of(
        fits("a pod without requests always fits", MakePod.pod().name("p"), Res.of(10, 20)),
        fails(
            "a pod over the free cpu and memory gets both reasons",
            resourcePod(Res.of(1, 1)),
            Res.of(10, 20),
            unschedulable(insufficient("cpu"), insufficient("memory"))),
        fails(
            "an init container's cpu beyond the free cpu is rejected",
            withInit(resourcePod(Res.of(1, 1)), Res.of(3, 1)),
            Res.of(8, 19),
            unschedulable(insufficient("cpu"))),
        fails(
            "the largest init container's cpu decides",
            withInit(resourcePod(Res.of(1, 1)), Res.of(3, 1), Res.of(2, 1)),
            Res.of(8, 19),
            unschedulable(insufficient("cpu"))),
        fails(
            "an init container's memory beyond the free memory is rejected",
            withInit(resourcePod(Res.of(1, 1)), Res.of(1, 3)),
            Res.of(9, 19),
            unschedulable(insufficient("memory"))),
        fails(
            "the largest init container's memory decides",
            withInit(resourcePod(Res.of(1, 1)), Res.of(1, 3), Res.of(1, 2)),
            Res.of(9, 19),
            unschedulable(insufficient("memory"))),
        fits(
            "init containers count as the maximum with the containers, not their sum",
            withInit(resourcePod(Res.of(1, 1)), Res.of(1, 1)),
            Res.of(9, 19)),
        fits(
            "several init containers count as their maximum, not their sum",
            withInit(resourcePod(Res.of(1, 1)), Res.of(1, 1), Res.of(1, 1)),
            Res.of(9, 19)),
        fits("both resources fit", resourcePod(Res.of(1, 1)), Res.of(5, 5)),
        fails(
            "memory fits but cpu does not",
            resourcePod(Res.of(2, 1)),
            Res.of(9, 5),
            unschedulable(insufficient("cpu"))),
        fails(
            "cpu fits but memory does not",
            resourcePod(Res.of(1, 2)),
            Res.of(5, 19),
            unschedulable(insufficient("memory"))),
        fits("a request filling the node exactly fits", resourcePod(Res.of(5, 1)), Res.of(5, 19)),
        fits(
            "an init container filling the node exactly fits",
            withInit(resourcePod(Res.of(4, 1)), Res.of(5, 1)),
            Res.of(5, 19)),
        fits(
            "an extended resource the node has fits",
            resourcePod(Res.of(0, 0, A, 1)),
            Res.of(0, 0)),
        fits(
            "an init container's extended resource the node has fits",
            withInit(resourcePod(Res.of(0, 0)), Res.of(0, 0, A, 1)),
            Res.of(0, 0)),
        fails(
            "more of an extended resource than the node has in total is unresolvable",
            resourcePod(Res.of(1, 1, A, 10)),
            Res.of(0, 0, A, 0),
            unresolvable(insufficient(A))),
        fails(
            "an init container asking more extended resource than the node has is unresolvable",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, A, 10)),
            Res.of(0, 0, A, 0),
            unresolvable(insufficient(A))),
        fails(
            "an extended resource already in use elsewhere is merely unschedulable",
            resourcePod(Res.of(1, 1, A, 1)),
            Res.of(0, 0, A, 5),
            unschedulable(insufficient(A))),
        fails(
            "an init container's extended resource already in use is merely unschedulable",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, A, 1)),
            Res.of(0, 0, A, 5),
            unschedulable(insufficient(A))),
        fails(
            "extended resources of containers add up",
            resourcePod(Res.of(1, 1, A, 3), Res.of(1, 1, A, 3)),
            Res.of(0, 0, A, 2),
            unresolvable(insufficient(A))),
        fits(
            "extended resources of init containers do not add up",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, A, 3), Res.of(1, 1, A, 3)),
            Res.of(0, 0, A, 2)),
        fails(
            "the largest init container's extended resource decides",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, A, 6), Res.of(1, 1, A, 3)),
            Res.of(0, 0, A, 2),
            unresolvable(insufficient(A))),
        fails(
            "an extended resource the node does not know is unresolvable",
            resourcePod(Res.of(1, 1, B, 1)),
            Res.of(0, 0),
            unresolvable(insufficient(B))),
        fails(
            "an init container's unknown extended resource is unresolvable",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, B, 1)),
            Res.of(0, 0),
            unresolvable(insufficient(B))),
        fails(
            "a kubernetes.io resource is checked like any scalar",
            resourcePod(Res.of(1, 1, K8S_A, 10)),
            Res.of(0, 0),
            unresolvable(insufficient(K8S_A))),
        fails(
            "a subdomain.kubernetes.io resource of an init container is checked",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, K8S_B, 10)),
            Res.of(0, 0),
            unresolvable(insufficient(K8S_B))),
        fails(
            "hugepages beyond the node's total are unresolvable",
            resourcePod(Res.of(1, 1, HUGE, 10)),
            Res.of(0, 0, HUGE, 0),
            unresolvable(insufficient(HUGE))),
        fails(
            "an init container's hugepages beyond the node's total are unresolvable",
            withInit(resourcePod(Res.of(0, 0)), Res.of(1, 1, HUGE, 10)),
            Res.of(0, 0, HUGE, 0),
            unresolvable(insufficient(HUGE))),
        fails(
            "hugepages of containers add up",
            resourcePod(Res.of(1, 1, HUGE, 3), Res.of(1, 1, HUGE, 3)),
            Res.of(0, 0, HUGE, 2),
            unresolvable(insufficient(HUGE))),
        new Case(
            "an ignored extended resource is not checked",
            resourcePod(Res.of(1, 1, B, 1)).info(),
            node(Res.of(0, 0)),
            "{\"ignoredResources\":[\"example.com/bbb\"]}",
            Status.success()),
        fits(
            "requests plus pod overhead fit",
            resourcePod(Res.of(1, 1)).overhead(Map.of("cpu", "3m", "memory", "13")),
            Res.of(5, 5)),
        fails(
            "requests plus pod overhead do not fit in memory",
            resourcePod(Res.of(1, 1)).overhead(Map.of("cpu", "1m", "memory", "15")),
            Res.of(5, 5),
            unschedulable(insufficient("memory"))),
        new Case(
            "an ignored resource group skips its extended resources but not kubernetes.io ones",
            resourcePod(new Res(1, 1, 0, Map.of(B, 1L, K8S_A, 1L))).info(),
            node(Res.of(0, 0)),
            "{\"ignoredResourceGroups\":[\"example.com\"]}",
            unresolvable(insufficient(K8S_A))),
        fits(
            "a zero extended resource request is not checked",
            resourcePod(Res.of(1, 1, A, 0)),
            Res.of(0, 0, A, 6)),
        fits(
            "resources the pod requests none of are not checked even when over-committed",
            resourcePod(Res.of(0, 0, A, 1)),
            new Res(20, 30, 0, Map.of(A, 1L))),
        new Case(
            "ignoring applies to extended resources only, never to hugepages",
            resourcePod(Res.of(0, 0, HUGE, 10)).info(),
            node(Res.of(0, 0)),
            "{\"ignoredResources\":[\"hugepages-2Mi\"]}",
            unresolvable(insufficient(HUGE))),
        fails(
            "scalar reasons follow cpu and memory, in name order",
            resourcePod(new Res(11, 21, 0, Map.of(B, 1L, A, 9L))),
            Res.of(0, 0),
            unresolvable(
                insufficient("cpu"), insufficient("memory"), insufficient(A), insufficient(B))));
  }

  /** Sets pod-level requests ({@code spec.resources.requests}). */
  private static PodWrapper podLevel(PodWrapper pod, Map<String, String> requests) {
    ResourceRequirements rr = new ResourceRequirements();
    rr.setRequests(
        requests.entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> new Quantity(e.getValue()))));
    pod.obj().getSpec().setResources(rr);
    return pod;
  }

  /** The pod-level rows of TestEnoughRequests (PodLevelResources is on by default). */
  static Stream<Case> podLevelResources() {
    NodeInfo empty =
        MakeNode.node()
            .name("n")
            .capacity(
                Map.of(
                    "cpu",
                    "10m",
                    "memory",
                    "20",
                    "pods",
                    "32",
                    A,
                    "5",
                    "ephemeral-storage",
                    "20",
                    HUGE,
                    "5"))
            .info();
    return Stream.of(
        fits(
            "pod-level and container-level requests both fit",
            podLevel(resourcePod(Res.of(1, 1)), Map.of("cpu", "1m", "memory", "2")),
            Res.of(5, 5)),
        fails(
            "a pod-level cpu request replaces the containers' and does not fit",
            podLevel(resourcePod(Res.of(1, 1)), Map.of("cpu", "7m", "memory", "2")),
            Res.of(5, 5),
            unschedulable(insufficient("cpu"))),
        fails(
            "a pod-level memory request replaces the containers' and does not fit",
            podLevel(resourcePod(Res.of(1, 1)), Map.of("cpu", "3m", "memory", "2")),
            Res.of(5, 19),
            unschedulable(insufficient("memory"))),
        new Case(
            "pod-level hugepages fit",
            podLevel(MakePod.pod().name("p"), Map.of("cpu", "3m", "memory", "2", HUGE, "5")).info(),
            empty,
            "{}",
            Status.success()),
        new Case(
            "pod-level hugepages replace the containers' hugepages",
            podLevel(
                    resourcePod(Res.of(1, 1, HUGE, 3)),
                    Map.of("cpu", "3m", "memory", "2", HUGE, "5"))
                .info(),
            empty,
            "{}",
            Status.success()),
        new Case(
            "pod-level hugepages beyond the node's total are unresolvable",
            podLevel(MakePod.pod().name("p"), Map.of("cpu", "3m", "memory", "2", HUGE, "10"))
                .info(),
            empty,
            "{}",
            unresolvable(insufficient(HUGE))),
        fails(
            "a pod-level request also replaces what init containers need",
            withInit(
                podLevel(resourcePod(Res.of(1, 1)), Map.of("cpu", "3m", "memory", "2")),
                Res.of(1, 1)),
            Res.of(5, 19),
            unschedulable(insufficient("memory"))),
        fails(
            "extended resources are not pod-level resources and still come from the containers",
            podLevel(resourcePod(Res.of(1, 1, B, 1)), Map.of(B, "0")),
            Res.of(0, 0),
            unresolvable(insufficient(B))));
  }

  /** Allocatable cpu 10m, memory 20 and room for one pod, which the node already runs. */
  static Stream<Case> notEnoughPods() {
    Map<String, String> onePod = Map.of("cpu", "10m", "memory", "20", "pods", "1");
    return Stream.of(
        new Case(
            "a pod without requests is rejected when the node has no room for another pod",
            MakePod.pod().name("p").info(),
            nodeWith(onePod, Res.of(10, 20)),
            "{}",
            unschedulable("Too many pods")),
        new Case(
            "fitting resources do not help when there is no room for another pod",
            resourcePod(Res.of(1, 1)).info(),
            nodeWith(onePod, Res.of(5, 5)),
            "{}",
            unschedulable("Too many pods")),
        new Case(
            "an exact fit does not help when there is no room for another pod",
            resourcePod(Res.of(5, 1)).info(),
            nodeWith(onePod, Res.of(5, 19)),
            "{}",
            unschedulable("Too many pods")),
        new Case(
            "an exact init container fit does not help when there is no room for another pod",
            withInit(resourcePod(Res.of(5, 1)), Res.of(5, 1)).info(),
            nodeWith(onePod, Res.of(5, 19)),
            "{}",
            unschedulable("Too many pods")),
        new Case(
            "the pod count reason comes before the resource reasons",
            resourcePod(Res.of(6, 1)).info(),
            nodeWith(onePod, Res.of(5, 19)),
            "{}",
            unschedulable("Too many pods", insufficient("cpu"))));
  }

  static Stream<Case> storageRequests() {
    return Stream.of(
        fits(
            "no ephemeral storage requested, cpu and memory fit",
            resourcePod(Res.of(1, 1)),
            Res.of(2, 10)),
        fails(
            "ephemeral storage beyond the node's total is unresolvable",
            resourcePod(Res.storage(25)),
            Res.of(2, 2),
            unresolvable(insufficient("ephemeral-storage"))),
        fits(
            "ephemeral storage left after other pods suffices",
            resourcePod(Res.storage(5)),
            new Res(2, 2, 10, Map.of())),
        fits(
            "ephemeral storage within the node's total fits",
            resourcePod(Res.storage(10)),
            Res.of(2, 2)));
  }

  /** Allocatable cpu 2m and room for one pod, nothing in use. */
  static Stream<Case> restartableInitContainers() {
    NodeInfo node = MakeNode.node().name("n").capacity(Map.of("cpu", "2m", "pods", "1")).info();
    return Stream.of(
        new Case(
            "a pod without sidecars fits",
            MakePod.pod().name("p").req(Map.of()).info(),
            node,
            "{}",
            Status.success()),
        new Case(
            "a pod with a request-less sidecar fits",
            MakePod.pod().name("p").req(Map.of()).sidecarReq(Map.of()).info(),
            node,
            "{}",
            Status.success()),
        new Case(
            "a sidecar's request adds to the containers' and fits when the sum does",
            MakePod.pod().name("p").req(Map.of("cpu", "1m")).sidecarReq(Map.of("cpu", "1m")).info(),
            node,
            "{}",
            Status.success()),
        new Case(
            "a sidecar's request adds to the containers' and is rejected when the sum exceeds the node",
            MakePod.pod().name("p").req(Map.of("cpu", "1m")).sidecarReq(Map.of("cpu", "2m")).info(),
            node,
            "{}",
            unresolvable(insufficient("cpu"))));
  }

  private static final String RESIZE_PENDING = "PodResizePending";

  /** Allocatable cpu 10m and 20 bytes of memory, running {@code existing}. */
  private static NodeInfo running(PodWrapper existing) {
    return MakeNode.node()
        .name("n")
        .capacity(Map.of("cpu", "10m", "memory", "20", "pods", "32"))
        .info(existing.name("existing").node("n").info());
  }

  /**
   * In-place resize (on by default since 1.33): a pod on the node counts at what its container
   * statuses report where that is more than its spec (or, when the resize is infeasible, at the
   * status alone), while the incoming pod is checked by its spec.
   */
  static Stream<Case> resizedPods() {
    return Stream.of(
        new Case(
            "a pod on the node whose status reports more than its spec counts the status",
            resourcePod(Res.of(3, 1)).info(),
            running(
                resourcePod(Res.of(2, 1))
                    .statusResources("c0", Map.of("cpu", "8m", "memory", "1"), null)),
            "{}",
            unschedulable(insufficient("cpu"))),
        new Case(
            "a pod on the node counts what the kubelet allocated to it",
            resourcePod(Res.of(3, 1)).info(),
            running(
                resourcePod(Res.of(2, 1))
                    .statusResources(
                        "c0", Map.of("cpu", "2m", "memory", "1"), Map.of("cpu", "8m"))),
            "{}",
            unschedulable(insufficient("cpu"))),
        new Case(
            "a pod on the node whose resize is infeasible counts its status, not its spec",
            resourcePod(Res.of(7, 1)).info(),
            running(
                resourcePod(Res.of(8, 1))
                    .statusResources("c0", Map.of("cpu", "2m", "memory", "1"), null)
                    .condition(RESIZE_PENDING, "Infeasible")),
            "{}",
            Status.success()),
        new Case(
            "a pod on the node whose resize is deferred still counts its larger spec",
            resourcePod(Res.of(7, 1)).info(),
            running(
                resourcePod(Res.of(8, 1))
                    .statusResources("c0", Map.of("cpu", "2m", "memory", "1"), null)
                    .condition(RESIZE_PENDING, "Deferred")),
            "{}",
            unschedulable(insufficient("cpu"))),
        new Case(
            "the incoming pod is checked by its spec, whatever its status reports",
            resourcePod(Res.of(1, 1))
                .statusResources("c0", Map.of("cpu", "20m", "memory", "1"), null)
                .info(),
            running(resourcePod(Res.of(5, 1))),
            "{}",
            Status.success()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({
    "enoughRequests",
    "podLevelResources",
    "notEnoughPods",
    "storageRequests",
    "restartableInitContainers",
    "resizedPods"
  })
  void filter(Case c) {
    Fit plugin = Fit.create(Fixtures.args(Fit.NAME, c.argsJson()), null);
    CycleState state = TestFrameworks.cycleState(List.of(c.node()));
    assertThat(plugin.preFilter(state, c.pod()).status().isSuccess()).isTrue();
    assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.want());
  }

  @Test
  void filterWithoutPreFilterIsAnError() {
    Fit plugin = Fit.create(PluginArgs.none(), null);
    NodeInfo node = MakeNode.node().name("n").info();
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThatThrownBy(() -> plugin.filter(state, MakePod.pod().name("p").info(), node))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("reading \"PreFilterNodeResourcesFit\" from cycleState: not found");
  }
}
