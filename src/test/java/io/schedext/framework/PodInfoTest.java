package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.schedext.framework.PodInfo.HostPort;
import io.schedext.kube.PodRequests;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pre-computed pod facts of {@link PodInfo}: requests, non-zero requests, host ports, PVCs and
 * affinity terms.
 */
class PodInfoTest {

  private static final long DEFAULT_MEM = PodRequests.DEFAULT_MEMORY_REQUEST;

  private static PodWrapper pod() {
    return MakePod.pod().name("p").uid("p");
  }

  // ----------------------------------------------------------------------------------------------------- requests

  /**
   * A requests case.
   *
   * @param name the behaviour
   * @param pod the pod
   * @param milliCpu expected cpu request
   * @param memory expected memory request
   * @param nonZeroMilliCpu expected non-zero cpu
   * @param nonZeroMemory expected non-zero memory
   */
  record RequestCase(
      String name,
      PodWrapper pod,
      long milliCpu,
      long memory,
      long nonZeroMilliCpu,
      long nonZeroMemory) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<RequestCase> requestCases() {
    return Stream.of(
        new RequestCase(
            "a pod without containers requests nothing, even non-zero", pod(), 0, 0, 0, 0),
        new RequestCase(
            "a container without requests counts 100m and 200Mi only as non-zero",
            pod().req(Map.of()),
            0,
            0,
            100,
            DEFAULT_MEM),
        new RequestCase(
            "containers add up",
            pod()
                .req(Map.of("cpu", "100m", "memory", "1Gi"))
                .req(Map.of("cpu", "200m", "memory", "1Gi")),
            300,
            2L << 30,
            300,
            2L << 30),
        new RequestCase(
            "an explicit zero stays zero in the non-zero requests",
            pod().req(Map.of("cpu", "0", "memory", "0")),
            0,
            0,
            0,
            0),
        new RequestCase(
            "the non-zero default applies per container and per resource",
            pod().req(Map.of("cpu", "50m")).req(Map.of("memory", "1Mi")),
            50,
            1L << 20,
            150,
            DEFAULT_MEM + (1L << 20)),
        new RequestCase(
            "a larger init container raises the request, resource by resource",
            pod()
                .req(Map.of("cpu", "1", "memory", "1Gi"))
                .initReq(Map.of("cpu", "2", "memory", "512Mi")),
            2000,
            1L << 30,
            2000,
            1L << 30),
        new RequestCase(
            "the largest init container wins",
            pod().req(Map.of("cpu", "1")).initReq(Map.of("cpu", "3")).initReq(Map.of("cpu", "2")),
            3000,
            0,
            3000,
            DEFAULT_MEM),
        new RequestCase(
            "an init container without requests counts the non-zero defaults in the non-zero max",
            pod().req(Map.of("cpu", "50m", "memory", "1Mi")).initReq(Map.of()),
            50,
            1L << 20,
            100,
            DEFAULT_MEM),
        new RequestCase(
            "overhead is added after the init container max",
            pod()
                .req(Map.of("cpu", "1"))
                .initReq(Map.of("cpu", "2"))
                .overhead(Map.of("cpu", "250m", "memory", "1Ki")),
            2250,
            1024,
            2250,
            DEFAULT_MEM + 1024),
        new RequestCase(
            "overhead alone is requested by a pod without containers",
            pod().overhead(Map.of("cpu", "250m", "memory", "1Ki")),
            250,
            1024,
            250,
            1024),
        new RequestCase(
            "a sidecar adds to the running containers",
            pod().req(Map.of("cpu", "1")).sidecarReq(Map.of("cpu", "1")),
            2000,
            0,
            2000,
            2 * DEFAULT_MEM),
        new RequestCase(
            "a regular init container started before a sidecar does not run beside it",
            pod()
                .req(Map.of("cpu", "1"))
                .initReq(Map.of("cpu", "3"))
                .sidecarReq(Map.of("cpu", "1")),
            3000,
            0,
            3000,
            2 * DEFAULT_MEM),
        new RequestCase(
            "a regular init container started after a sidecar runs beside it",
            pod()
                .req(Map.of("cpu", "1"))
                .sidecarReq(Map.of("cpu", "1"))
                .initReq(Map.of("cpu", "3")),
            4000,
            0,
            4000,
            2 * DEFAULT_MEM),
        new RequestCase(
            "sidecars accumulate for the init containers after them",
            pod()
                .req(Map.of("cpu", "1"))
                .sidecarReq(Map.of("cpu", "1"))
                .sidecarReq(Map.of("cpu", "2"))
                .initReq(Map.of("cpu", "2")),
            5000,
            0,
            5000,
            3 * DEFAULT_MEM),
        new RequestCase(
            "a sidecar without requests adds the non-zero defaults",
            pod().req(Map.of("cpu", "1", "memory", "1Gi")).sidecarReq(Map.of()),
            1000,
            1L << 30,
            1100,
            (1L << 30) + DEFAULT_MEM),
        new RequestCase(
            "fractional quantities round up: 0.5m cpu is 1 millicore, 0.5 byte is 1 byte",
            pod().req(Map.of("cpu", "0.5m", "memory", "0.5")),
            1,
            1,
            1,
            1),
        new RequestCase(
            "quantities are summed exactly before rounding",
            pod().req(Map.of("cpu", "0.4m")).req(Map.of("cpu", "0.4m")),
            1,
            0,
            1,
            2 * DEFAULT_MEM));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requestCases")
  void requests(RequestCase c) {
    PodInfo p = c.pod().info();
    assertThat(p.request().milliCpu()).isEqualTo(c.milliCpu());
    assertThat(p.request().memory()).isEqualTo(c.memory());
    assertThat(p.nonZeroMilliCpu()).isEqualTo(c.nonZeroMilliCpu());
    assertThat(p.nonZeroMemory()).isEqualTo(c.nonZeroMemory());
  }

  @Test
  void extendedResourcesHugepagesAndEphemeralStorageAreRequested() {
    PodInfo p =
        pod()
            .req(
                Map.of(
                    "example.com/gpu",
                    "1",
                    "hugepages-2Mi",
                    "4Mi",
                    "ephemeral-storage",
                    "1Gi",
                    "not-extended",
                    "5"))
            .initReq(Map.of("example.com/gpu", "3"))
            .info();

    Resource want = new Resource(0, 0, 1L << 30, 0);
    want.setScalar("example.com/gpu", 3);
    want.setScalar("hugepages-2Mi", 4L << 20);
    assertThat(p.request()).isEqualTo(want);
  }

  @Test
  void aMalformedQuantityMakesThePodUnreadable() {
    PodWrapper w = pod().req(Map.of());
    Quantity bad = new Quantity();
    bad.setAmount("abc");
    w.obj().getSpec().getContainers().get(0).getResources().setRequests(Map.of("cpu", bad));

    assertThatThrownBy(w::info)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("abc");
  }

  @Test
  void aPodWithoutMetadataIsRejected() {
    assertThatThrownBy(() -> PodInfo.of(new io.fabric8.kubernetes.api.model.Pod()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod has no metadata");
  }

  // ------------------------------------------------------------------------------------------------- host ports

  private static ContainerPort port(String ip, String protocol, Integer hostPort) {
    ContainerPort p = new ContainerPort();
    p.setHostIP(ip);
    p.setProtocol(protocol);
    p.setHostPort(hostPort);
    p.setContainerPort(hostPort == null ? 1 : Math.max(hostPort, 1));
    return p;
  }

  private static Container container(String restartPolicy, ContainerPort... ports) {
    Container c = new Container();
    c.setName("c" + System.identityHashCode(ports));
    c.setRestartPolicy(restartPolicy);
    c.setPorts(new ArrayList<>(List.of(ports)));
    return c;
  }

  @Test
  void hostPortsComeFromSidecarsThenContainersAndSkipUnsetOnes() {
    PodWrapper w = pod();
    w.obj()
        .getSpec()
        .setInitContainers(
            new ArrayList<>(
                List.of(
                    container(null, port("", "TCP", 70)),
                    container("Always", port("10.0.0.1", "UDP", 71), port(null, null, 0)))));
    w.obj()
        .getSpec()
        .getContainers()
        .addAll(
            List.of(
                container(null, port(null, null, 80), port("", "", null)),
                container(null, port("127.0.0.1", "SCTP", 81), port("", "TCP", -1))));

    assertThat(w.info().hostPorts())
        .containsExactly(
            new HostPort("10.0.0.1", "UDP", 71),
            new HostPort("", "", 80),
            new HostPort("127.0.0.1", "SCTP", 81));
  }

  @Test
  void aPodWithoutHostPortsHasNone() {
    assertThat(pod().req(Map.of("cpu", "1")).info().hostPorts()).isEmpty();
  }

  // ------------------------------------------------------------------------------------------------------- PVCs

  @Test
  void pvcKeysListPersistentVolumeClaimVolumesOnly() {
    Volume ephemeral =
        new VolumeBuilder().withName("scratch").withNewEphemeral().endEphemeral().build();
    Volume emptyDir = new VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build();
    PodInfo p =
        pod().namespace("ns").pvc("data").volume(ephemeral).volume(emptyDir).pvc("logs").info();

    assertThat(p.pvcKeys()).containsExactly("ns/data", "ns/logs");
  }

  // ----------------------------------------------------------------------------------------------------- affinity

  @Test
  void affinityTermsAreCompiledWithTheOwnNamespaceByDefault() {
    PodAffinityTerm listed = PodWrapper.affinityTerm("zone", "In", "app", "web");
    listed.setNamespaces(List.of("a", "b"));
    PodAffinityTerm allNamespaces = PodWrapper.affinityTerm("host", "Exists", "app");
    allNamespaces.setNamespaceSelector(new LabelSelector());
    PodInfo p =
        pod()
            .namespace("own")
            .podAffinityIn("zone", "app", "web")
            .podAntiAffinityTerm(listed)
            .podAntiAffinityTerm(allNamespaces)
            .preferredPodAffinityIn(7, "zone", "tier", "db")
            .preferredPodAntiAffinityIn(3, "rack", "app", "cache")
            .info();

    assertThat(p.hasPodAffinityOrAntiAffinity()).isTrue();
    assertThat(p.hasRequiredAntiAffinity()).isTrue();
    assertThat(p.parseError()).isNull();
    AffinityTerm own = p.requiredAffinityTerms().get(0);
    assertThat(own.namespaces()).isEqualTo(Set.of("own"));
    assertThat(own.topologyKey()).isEqualTo("zone");
    assertThat(own.namespaceSelector().isNothing()).isTrue();
    assertThat(p.requiredAntiAffinityTerms().get(0).namespaces()).isEqualTo(Set.of("a", "b"));
    assertThat(p.requiredAntiAffinityTerms().get(1).namespaces()).isEmpty();
    assertThat(p.requiredAntiAffinityTerms().get(1).namespaceSelector().isEverything()).isTrue();
    assertThat(p.preferredAffinityTerms()).hasSize(1);
    assertThat(p.preferredAffinityTerms().get(0).weight()).isEqualTo(7);
    assertThat(p.preferredAntiAffinityTerms().get(0).weight()).isEqualTo(3);
    assertThat(p.preferredAntiAffinityTerms().get(0).term().topologyKey()).isEqualTo("rack");
  }

  @Test
  void anAffinityTermMatchesPodsInItsNamespacesOrSelectedNamespacesByLabel() {
    PodAffinityTerm t = PodWrapper.affinityTerm("zone", "In", "app", "web");
    t.setNamespaces(List.of("listed"));
    LabelSelector teamA = new LabelSelector();
    teamA.setMatchLabels(Map.of("team", "a"));
    t.setNamespaceSelector(teamA);
    AffinityTerm term = AffinityTerm.compile("own", t);
    PodInfo webListed = MakePod.pod().name("w").namespace("listed").label("app", "web").info();
    PodInfo webElsewhere = MakePod.pod().name("w").namespace("other").label("app", "web").info();
    PodInfo dbListed = MakePod.pod().name("d").namespace("listed").label("app", "db").info();

    assertThat(term.matches(webListed, Map.of())).isTrue();
    assertThat(term.matches(webElsewhere, Map.of())).isFalse();
    assertThat(term.matches(webElsewhere, Map.of("team", "a"))).isTrue();
    assertThat(term.matches(dbListed, Map.of("team", "a"))).isFalse();
    assertThat(
            AffinityTerm.compile("own", PodWrapper.affinityTerm("zone", "Exists", "app"))
                .matches(MakePod.pod().name("x").namespace("own").label("app", "any").info(), null))
        .isTrue();
  }

  @Test
  void aTermWithANullSelectorMatchesNoPod() {
    PodAffinityTerm t = new PodAffinityTerm();
    t.setTopologyKey("zone");
    AffinityTerm term = AffinityTerm.compile("own", t);
    assertThat(term.matches(MakePod.pod().name("x").namespace("own").info(), Map.of())).isFalse();
  }

  /**
   * A parse-error case.
   *
   * @param name the behaviour
   * @param pod the pod
   * @param error the expected aggregate text
   * @param compiled how many terms of each kind (required, required anti, preferred, preferred
   *     anti) compiled
   */
  record ParseCase(String name, PodWrapper pod, String error, List<Integer> compiled) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ParseCase> parseCases() {
    PodAffinityTerm badOp = PodWrapper.affinityTerm("zone", "Bad", "app", "web");
    PodAffinityTerm emptyIn = PodWrapper.affinityTerm("zone", "In", "app");
    return Stream.of(
        new ParseCase(
            "valid terms have no parse error",
            pod().podAffinityIn("zone", "app", "web"),
            null,
            List.of(1, 0, 0, 0)),
        new ParseCase(
            "an unknown operator fails its term list only",
            pod().podAffinityIn("zone", "app", "web").podAntiAffinityTerm(badOp),
            "requiredAntiAffinityTerms: \"Bad\" is not a valid label selector operator",
            List.of(1, 0, 0, 0)),
        new ParseCase(
            "one bad term empties its whole list",
            pod().podAffinityIn("zone", "app", "web").podAffinityTerm(emptyIn),
            "requiredAffinityTerms: for 'in', 'notin' operators, values set can't be empty",
            List.of(0, 0, 0, 0)),
        new ParseCase(
            "errors of several lists are aggregated in brackets",
            pod().podAffinityTerm(badOp).preferredPodAntiAffinityIn(1, "zone", "bad key!", "x"),
            "[requiredAffinityTerms: \"Bad\" is not a valid label selector operator, "
                + "preferredAntiAffinityTerms: invalid label key \"bad key!\"]",
            List.of(0, 0, 0, 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("parseCases")
  void parseErrors(ParseCase c) {
    PodInfo p = c.pod().info();
    assertThat(p.parseError()).isEqualTo(c.error());
    assertThat(
            List.of(
                p.requiredAffinityTerms().size(),
                p.requiredAntiAffinityTerms().size(),
                p.preferredAffinityTerms().size(),
                p.preferredAntiAffinityTerms().size()))
        .isEqualTo(c.compiled());
  }

  // ----------------------------------------------------------------------------------------------
  // identity, copy

  @Test
  void identityFieldsDefaultSensibly() {
    PodInfo p = MakePod.pod().name("p").namespace("ns").uid("u").label("a", "b").info();
    assertThat(p.key()).isEqualTo("ns/p");
    assertThat(p.uid()).isEqualTo("u");
    assertThat(p.nodeName()).isEmpty();
    assertThat(p.priority()).isZero();
    assertThat(p.terminating()).isFalse();
    assertThat(p.labels()).isEqualTo(Map.of("a", "b"));
    assertThat(p.hasPodAffinityOrAntiAffinity()).isFalse();
    assertThat(p.hasRequiredAntiAffinity()).isFalse();
    assertThat(p.toString()).isEqualTo("ns/p");

    PodInfo q = MakePod.pod().name("q").priority(7).terminating().node("n1").info();
    assertThat(q.priority()).isEqualTo(7);
    assertThat(q.terminating()).isTrue();
    assertThat(q.toString()).isEqualTo("default/q@n1");
    assertThat(PodInfo.of(new PodBuilder().withNewMetadata().endMetadata().build()).labels())
        .isEmpty();
  }

  @Test
  void assignedToCopiesThePodOntoANodeAndSharesTheFacts() {
    PodInfo p = pod().req(Map.of("cpu", "1")).podAffinityIn("zone", "app", "web").info();

    PodInfo a = p.assignedTo("n1");

    assertThat(a.nodeName()).isEqualTo("n1");
    assertThat(a.pod().getSpec().getNodeName()).isEqualTo("n1");
    assertThat(p.nodeName()).isEmpty();
    assertThat(p.pod().getSpec().getNodeName()).isNull();
    assertThat(a.request()).isSameAs(p.request());
    assertThat(a.requiredAffinityTerms()).isSameAs(p.requiredAffinityTerms());
    assertThat(a.uid()).isEqualTo(p.uid());
  }
}
