package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pod requests as exact decimals, as component-helpers' PodRequests (with and without non-missing
 * defaults).
 */
class PodRequestsTest {

  record Case(
      String name, PodWrapper pod, Map<String, String> requests, Map<String, String> nonZero) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static PodWrapper pod() {
    return MakePod.pod().name("p");
  }

  private static Map<String, String> m(String... kv) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      out.put(kv[i], kv[i + 1]);
    }
    return out;
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("no containers, no requests", pod(), m(), m()),
        new Case(
            "a container without requests gets 0.1 cpu and 200Mi only in the non-zero view",
            pod().req(m()),
            m(),
            m("cpu", "0.1", "memory", "209715200")),
        new Case(
            "every resource is summed over containers",
            pod()
                .req(m("cpu", "1", "example.com/gpu", "1"))
                .req(m("cpu", "500m", "example.com/gpu", "2")),
            m("cpu", "1.5", "example.com/gpu", "3"),
            m("cpu", "1.5", "example.com/gpu", "3", "memory", "419430400")),
        new Case(
            "a resource asked only by an init container is requested",
            pod().req(m("cpu", "1")).initReq(m("example.com/fpga", "1")),
            m("cpu", "1", "example.com/fpga", "1"),
            m("cpu", "1", "memory", "209715200", "example.com/fpga", "1")),
        new Case(
            "overhead of any resource is added",
            pod().req(m("cpu", "1")).overhead(m("cpu", "100m", "example.com/gpu", "1")),
            m("cpu", "1.1", "example.com/gpu", "1"),
            m("cpu", "1.1", "memory", "209715200", "example.com/gpu", "1")),
        new Case(
            "sidecars raise both the sum and later init containers",
            pod()
                .req(m("memory", "1Gi"))
                .sidecarReq(m("memory", "1Gi"))
                .initReq(m("memory", "3Gi")),
            m("memory", "4294967296"),
            m("cpu", "0.2", "memory", "4294967296")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void requests(Case c) {
    Pod p = c.pod().obj();
    assertThat(decimals(PodRequests.of(p))).isEqualTo(c.requests());
    assertThat(decimals(PodRequests.nonZero(p))).isEqualTo(c.nonZero());
    assertThat(decimals(PodRequests.ofSpec(p)))
        .as("no status: as the spec")
        .isEqualTo(c.requests());
  }

  /**
   * Pod-level requests replace the containers' for cpu, memory and hugepages; the non-zero defaults
   * then fill only a resource the pod's requests name nowhere (upstream's {@code
   * TestPodInfoCalculateResources}).
   */
  static Stream<Case> podLevel() {
    return Stream.of(
        new Case(
            "pod-level requests replace the containers' and the init containers'",
            pod()
                .initReq(m("cpu", "500m", "memory", "500M"))
                .req(m("cpu", "500m", "memory", "500M"))
                .podReq(m("cpu", "1200m", "memory", "1200M")),
            m("cpu", "1.2", "memory", "1200000000"),
            m("cpu", "1.2", "memory", "1200000000")),
        new Case(
            "pod-level requests replace a sidecar's too",
            pod()
                .sidecarReq(m("cpu", "500m", "memory", "500M"))
                .req(m("cpu", "500m", "memory", "500M"))
                .podReq(m("cpu", "1200m", "memory", "1200M")),
            m("cpu", "1.2", "memory", "1200000000"),
            m("cpu", "1.2", "memory", "1200000000")),
        new Case(
            "pod-level memory alone leaves the default cpu to containers without one",
            pod().initReq(m()).req(m()).podReq(m("memory", "1200M")),
            m("memory", "1200000000"),
            m("cpu", "0.1", "memory", "1200000000")),
        new Case(
            "pod-level cpu alone leaves the default memory to containers without one",
            pod().initReq(m()).req(m()).podReq(m("cpu", "500m")),
            m("cpu", "0.5"),
            m("cpu", "0.5", "memory", "209715200")),
        new Case(
            "a resource pod-level requests do not support stays the containers'",
            pod()
                .initReq(m("ephemeral-storage", "500M"))
                .req(m("ephemeral-storage", "800M"))
                .podReq(m("cpu", "500m")),
            m("cpu", "0.5", "ephemeral-storage", "800000000"),
            m("cpu", "0.5", "memory", "209715200", "ephemeral-storage", "800000000")),
        new Case(
            "with pod-level requests a container without memory gets no default once another"
                + " states memory",
            pod().req(m("memory", "100M")).req(m()).podReq(m("cpu", "1")),
            m("cpu", "1", "memory", "100000000"),
            m("cpu", "1", "memory", "100000000")),
        new Case(
            "pod-level requests of only unsupported resources are ignored",
            pod().req(m()).podReq(m("ephemeral-storage", "1G")),
            m(),
            m("cpu", "0.1", "memory", "209715200")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podLevel")
  void podLevelRequests(Case c) {
    requests(c);
  }

  record ResizeCase(
      String name, PodWrapper pod, Map<String, String> requests, Map<String, String> fromSpec) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String PENDING = "PodResizePending";

  /**
   * In-place resize: a regular or sidecar container whose status reports resources counts the
   * per-resource maximum of spec, status and allocation, or of status and allocation alone when the
   * resize is infeasible (upstream's component-helpers {@code TestPodRequests} with {@code
   * UseStatusResources} and the framework's {@code TestCalculatePodResourcesWithResize}). {@code
   * fromSpec} is what NodeResourcesFit's Filter counts: the spec alone.
   */
  static Stream<ResizeCase> resized() {
    return Stream.of(
        new ResizeCase(
            "an infeasible resize counts what the status reports, not the spec",
            pod()
                .req(m("cpu", "4"))
                .statusResources("c0", m("cpu", "2"), null)
                .condition(PENDING, "Infeasible"),
            m("cpu", "2"),
            m("cpu", "4")),
        new ResizeCase(
            "an infeasible resize counts the larger of the status and the allocation",
            pod()
                .req(m("cpu", "6"))
                .statusResources("c0", m("cpu", "2"), m("cpu", "4"))
                .condition(PENDING, "Infeasible"),
            m("cpu", "4"),
            m("cpu", "6")),
        new ResizeCase(
            "without a resize condition the larger of spec and status counts",
            pod().req(m("cpu", "4")).statusResources("c0", m("cpu", "2"), null),
            m("cpu", "4"),
            m("cpu", "4")),
        new ResizeCase(
            "a status larger than the spec counts while the resize is in progress",
            pod()
                .req(m("cpu", "1"))
                .statusResources("c0", m("cpu", "3"), m("cpu", "2"))
                .condition("PodResizeInProgress", null),
            m("cpu", "3"),
            m("cpu", "1")),
        new ResizeCase(
            "each resource takes its own maximum of spec, status and allocation",
            pod()
                .req(m("cpu", "30m", "memory", "20M", "ephemeral-storage", "10G"))
                .statusResources(
                    "c0",
                    m("cpu", "10m", "memory", "30M", "ephemeral-storage", "20G"),
                    m("cpu", "20m", "memory", "10M", "ephemeral-storage", "30G")),
            m("cpu", "0.03", "memory", "30000000", "ephemeral-storage", "30000000000"),
            m("cpu", "0.03", "memory", "20000000", "ephemeral-storage", "10000000000")),
        new ResizeCase(
            "a deferred resize counts the larger spec",
            pod()
                .req(m("cpu", "700m", "memory", "800M"))
                .statusResources("c0", m("cpu", "500m", "memory", "500M"), null)
                .condition(PENDING, "Deferred"),
            m("cpu", "0.7", "memory", "800000000"),
            m("cpu", "0.7", "memory", "800000000")),
        new ResizeCase(
            "an infeasible resize of two resources counts the status of both",
            pod()
                .req(m("cpu", "700m", "memory", "800M"))
                .statusResources("c0", m("cpu", "500m", "memory", "500M"), null)
                .condition(PENDING, "Infeasible"),
            m("cpu", "0.5", "memory", "500000000"),
            m("cpu", "0.7", "memory", "800000000")),
        new ResizeCase(
            "an infeasible resize of a sidecar counts its status",
            pod()
                .sidecarReq(m("cpu", "4"))
                .statusResources("sidecar0", m("cpu", "2"), null)
                .condition(PENDING, "Infeasible"),
            m("cpu", "2"),
            m("cpu", "4")),
        new ResizeCase(
            "a sidecar without a resize condition counts the larger spec",
            pod().sidecarReq(m("cpu", "4")).statusResources("sidecar0", m("cpu", "2"), null),
            m("cpu", "4"),
            m("cpu", "4")),
        new ResizeCase(
            "a plain init container's status is not read",
            pod()
                .initReq(m("cpu", "4"))
                .statusResources("init0", m("cpu", "2"), null)
                .condition(PENDING, "Infeasible"),
            m("cpu", "4"),
            m("cpu", "4")),
        new ResizeCase(
            "an init container and a container whose statuses match their specs",
            pod()
                .req(m("cpu", "500m", "memory", "500M"))
                .statusResources("c0", m("cpu", "500m", "memory", "500M"), null)
                .initReq(m("cpu", "700m", "memory", "800M"))
                .statusResources("init0", m("cpu", "700m", "memory", "800M"), null),
            m("cpu", "0.7", "memory", "800000000"),
            m("cpu", "0.7", "memory", "800000000")),
        new ResizeCase(
            "a sidecar adds to the containers whatever their statuses",
            pod()
                .req(m("cpu", "500m", "memory", "500M"))
                .statusResources("c0", m("cpu", "500m", "memory", "500M"), null)
                .initReq(m("cpu", "700m", "memory", "800M"))
                .statusResources("init0", m("cpu", "700m", "memory", "800M"), null)
                .sidecarReq(m("cpu", "700m", "memory", "800M"))
                .statusResources("sidecar1", m("cpu", "700m", "memory", "800M"), null),
            m("cpu", "1.2", "memory", "1300000000"),
            m("cpu", "1.2", "memory", "1300000000")),
        new ResizeCase(
            "a status names another container: nothing changes",
            pod().req(m("cpu", "1")).statusResources("other", m("cpu", "3"), null),
            m("cpu", "1"),
            m("cpu", "1")),
        new ResizeCase(
            "pod-level requests still replace resized containers",
            pod()
                .req(m("cpu", "1", "memory", "1G"))
                .statusResources("c0", m("cpu", "3", "memory", "1G"), null)
                .podReq(m("cpu", "2")),
            m("cpu", "2", "memory", "1000000000"),
            m("cpu", "2", "memory", "1000000000")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("resized")
  void resizedPods(ResizeCase c) {
    Pod p = c.pod().obj();
    assertThat(decimals(PodRequests.of(p))).isEqualTo(c.requests());
    assertThat(decimals(PodRequests.ofSpec(p))).isEqualTo(c.fromSpec());
    assertThat(PodRequests.hasStatusResources(p)).isTrue();
  }

  @Test
  void theNonZeroDefaultsFollowTheStatusAsWell() {
    Pod p =
        pod()
            .req(m("memory", "1Gi"))
            .statusResources("c0", m("cpu", "500m", "memory", "1Gi"), null)
            .obj();
    assertThat(decimals(PodRequests.nonZero(p)))
        .as("the status names cpu: no default")
        .isEqualTo(m("cpu", "0.5", "memory", "1073741824"));
    assertThat(decimals(PodRequests.nonZeroFromContainerSpecs(p)))
        .as("the spec alone names no cpu: the default")
        .isEqualTo(m("cpu", "0.1", "memory", "1073741824"));
  }

  @Test
  void onlyTheFirstResizePendingConditionDecides() {
    Pod p =
        pod()
            .req(m("cpu", "4"))
            .statusResources("c0", m("cpu", "2"), null)
            .condition(PENDING, "Deferred")
            .condition(PENDING, "Infeasible")
            .obj();
    assertThat(PodRequests.isResizeInfeasible(p)).isFalse();
    assertThat(decimals(PodRequests.of(p))).isEqualTo(m("cpu", "4"));
  }

  private static Map<String, String> decimals(Map<String, BigDecimal> in) {
    Map<String, String> out = new LinkedHashMap<>();
    in.forEach((k, v) -> out.put(k, v.stripTrailingZeros().toPlainString()));
    return out;
  }

  @Test
  void aPodWithoutSpecRequestsNothing() {
    assertThat(PodRequests.of(new Pod())).isEmpty();
    assertThat(PodRequests.nonZero(new Pod())).isEmpty();
  }

  @Test
  void resourceNamesAreClassifiedAsTheCoreHelpers() {
    assertThat(ResourceNames.isExtended("example.com/foo")).isTrue();
    assertThat(ResourceNames.isExtended("foo")).as("no domain: native").isFalse();
    assertThat(ResourceNames.isExtended("kubernetes.io/foo")).as("prefixed native").isFalse();
    assertThat(ResourceNames.isExtended("requests.example.com/foo")).isFalse();
    assertThat(ResourceNames.isExtended("a/b/c")).isFalse();
    assertThat(ResourceNames.isNative("cpu")).isTrue();
    assertThat(ResourceNames.isPrefixedNative("kubernetes.io/batch-cpu")).isTrue();
    assertThat(ResourceNames.isHugePages("hugepages-1Gi")).isTrue();
    assertThat(ResourceNames.isAttachableVolume("attachable-volumes-aws-ebs")).isTrue();
    assertThat(ResourceNames.isScalar("example.com/foo")).isTrue();
    assertThat(ResourceNames.isScalar("hugepages-2Mi")).isTrue();
    assertThat(ResourceNames.isScalar("kubernetes.io/batch-cpu")).isTrue();
    assertThat(ResourceNames.isScalar("attachable-volumes-csi-x")).isTrue();
    assertThat(ResourceNames.isScalar("cpu")).isFalse();
    assertThat(ResourceNames.isScalar("random-invalid-extended-key")).isFalse();
  }
}
