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
