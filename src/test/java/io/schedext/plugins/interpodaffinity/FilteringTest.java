package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.node;
import static io.schedext.plugins.interpodaffinity.Fixtures.pod;
import static io.schedext.plugins.interpodaffinity.Fixtures.req;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.selector;
import static io.schedext.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports upstream's filtering_test.go: PreFilter statuses and Filter statuses per node. */
class FilteringTest {

  private static final String NAME = InterPodAffinity.NAME;
  private static final Status OK = Status.success();
  private static final Status SKIP = Status.skip();
  private static final Status AFFINITY =
      Status.unresolvable(InterPodAffinity.ERR_REASON_AFFINITY_RULES_NOT_MATCH).withPlugin(NAME);
  private static final Status ANTI =
      Status.unschedulable(InterPodAffinity.ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
          .withPlugin(NAME);
  private static final Status EXISTING =
      Status.unschedulable(InterPodAffinity.ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
          .withPlugin(NAME);

  private static final Map<String, String> SERVICE_SCAN = Map.of("service", "securityscan");
  private static final Map<String, String> SECURITY_S1 = Map.of("security", "S1");

  record Case(
      String name,
      PodInfo pod,
      List<PodInfo> pods,
      List<Node> nodes,
      Status wantPreFilter,
      List<Status> wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static PodWrapper incoming() {
    return MakePod.pod().name("incoming");
  }

  private static Case single(
      String name, PodInfo pod, List<PodInfo> pods, Status wantPreFilter, Status want) {
    Node node1 = node("node1", Map.of("region", "r1", "zone", "z11"));
    return new Case(
        name, pod, pods, List.of(node1), wantPreFilter, want == null ? List.of() : List.of(want));
  }

  static Stream<Case> singleNodeCases() {
    PodInfo scanOnNode1 = pod("node1", SERVICE_SCAN, null);
    var teamIn1 = selector(req("team", "In", "team1"));
    var scanOrValue2 = selector(req("service", "In", "securityscan", "value2"));
    return Stream.of(
        single(
            "a pod without required affinity is skipped when no node has pods with anti-affinity",
            incoming().info(),
            List.of(),
            SKIP,
            null),
        single(
            "required affinity with an In selector matching the existing pod fits",
            incoming()
                .labels(SECURITY_S1)
                .podAffinityIn("region", "service", "securityscan", "value2")
                .info(),
            List.of(scanOnNode1),
            OK,
            OK),
        single(
            "required affinity with a NotIn selector the existing pod satisfies fits",
            incoming()
                .labels(SECURITY_S1)
                .podAffinityTerm(
                    PodWrapper.affinityTerm(
                        "region", "NotIn", "service", "securityscan3", "value3"))
                .info(),
            List.of(scanOnNode1),
            OK,
            OK),
        single(
            "required affinity naming another namespace does not see the existing pod",
            pod(
                "",
                SECURITY_S1,
                requiredAffinity(term("", scanOrValue2, List.of("DiffNameSpace"), null))),
            List.of(pod("ns", "node1", SERVICE_SCAN, null)),
            OK,
            AFFINITY),
        single(
            "required affinity whose selector matches no existing pod is unresolvable",
            incoming()
                .labels(SERVICE_SCAN)
                .podAffinityIn("", "service", "antivirusscan", "value2")
                .info(),
            List.of(scanOnNode1),
            OK,
            AFFINITY),
        single(
            "several required affinity terms with different operators, all matched, fit",
            pod(
                "",
                SECURITY_S1,
                requiredAffinity(
                    term(
                        "region",
                        selector(req("service", "Exists"), req("wrongkey", "DoesNotExist"))),
                    term(
                        "region",
                        selector(
                            req("service", "In", "securityscan"),
                            req("service", "NotIn", "WrongValue"))))),
            List.of(scanOnNode1),
            OK,
            OK),
        single(
            "the requirements of a selector are ANDed, so one unmatched requirement fails the term",
            pod(
                "",
                SECURITY_S1,
                requiredAffinity(
                    term(
                        "region",
                        selector(req("service", "Exists"), req("wrongkey", "DoesNotExist"))),
                    term(
                        "region",
                        selector(
                            req("service", "In", "securityscan2"),
                            req("service", "NotIn", "WrongValue"))))),
            List.of(scanOnNode1),
            OK,
            AFFINITY),
        single(
            "affinity and anti-affinity both satisfied by the existing pod fit",
            incoming()
                .labels(SECURITY_S1)
                .podAffinityIn("region", "service", "securityscan", "value2")
                .podAntiAffinityIn("node", "service", "antivirusscan", "value2")
                .info(),
            List.of(scanOnNode1),
            OK,
            OK),
        single(
            "affinity, anti-affinity and the existing pod's anti-affinity all satisfied fit",
            incoming()
                .labels(SECURITY_S1)
                .podAffinityIn("region", "service", "securityscan", "value2")
                .podAntiAffinityIn("node", "service", "antivirusscan", "value2")
                .info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SERVICE_SCAN)
                    .podAntiAffinityIn("node", "service", "antivirusscan", "value2")
                    .info()),
            OK,
            OK),
        single(
            "affinity satisfied but anti-affinity violated in the zone is unschedulable",
            incoming()
                .labels(SECURITY_S1)
                .podAffinityIn("region", "service", "securityscan", "value2")
                .podAntiAffinityIn("zone", "service", "securityscan", "value2")
                .info(),
            List.of(scanOnNode1),
            OK,
            ANTI),
        single(
            "the existing pod's anti-affinity matching the incoming pod in the zone is unschedulable",
            incoming()
                .labels(SERVICE_SCAN)
                .podAffinityIn("region", "service", "securityscan", "value2")
                .podAntiAffinityIn("node", "service", "antivirusscan", "value2")
                .info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SERVICE_SCAN)
                    .podAntiAffinityIn("zone", "service", "securityscan", "value2")
                    .info()),
            OK,
            EXISTING),
        single(
            "a pod matching its own NotIn term is not the first of its group when it does not match it",
            incoming()
                .labels(SERVICE_SCAN)
                .podAffinityTerm(
                    PodWrapper.affinityTerm("region", "NotIn", "service", "securityscan", "value2"))
                .info(),
            List.of(pod("node2", SERVICE_SCAN, null)),
            OK,
            AFFINITY),
        single(
            "existing anti-affinity is enforced on a pod without affinity of its own",
            incoming().labels(SERVICE_SCAN).info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SERVICE_SCAN)
                    .podAntiAffinityIn("zone", "service", "securityscan", "value2")
                    .info()),
            OK,
            EXISTING),
        single(
            "existing anti-affinity that does not match the incoming pod leaves nothing to filter",
            incoming().labels(SERVICE_SCAN).info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SERVICE_SCAN)
                    .podAntiAffinityTerm(
                        PodWrapper.affinityTerm(
                            "zone", "NotIn", "service", "securityscan", "value2"))
                    .info()),
            SKIP,
            null),
        single(
            "the incoming pod's anti-affinity matching the existing pod wins over the symmetric check",
            incoming()
                .labels(SERVICE_SCAN)
                .podAntiAffinityExists("region", "service")
                .podAntiAffinityExists("region", "security")
                .info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SECURITY_S1)
                    .podAntiAffinityExists("zone", "security")
                    .info()),
            OK,
            ANTI),
        single(
            "symmetry a1: the incoming pod's anti-affinity matches the existing pod",
            incoming()
                .labels(SERVICE_SCAN)
                .podAntiAffinityExists("zone", "service")
                .podAntiAffinityExists("zone", "security")
                .info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SECURITY_S1)
                    .podAntiAffinityExists("zone", "security")
                    .info()),
            OK,
            ANTI),
        single(
            "symmetry a2: only the existing pod's anti-affinity matches the incoming pod",
            incoming().labels(SECURITY_S1).podAntiAffinityExists("zone", "security").info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(SERVICE_SCAN)
                    .podAntiAffinityExists("zone", "service")
                    .podAntiAffinityExists("zone", "security")
                    .info()),
            OK,
            EXISTING),
        single(
            "symmetry b1: both match each other partially, the incoming pod's rule is reported",
            incoming()
                .labels(Map.of("abc", "", "xyz", ""))
                .podAntiAffinityExists("zone", "abc")
                .podAntiAffinityExists("zone", "def")
                .info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(Map.of("def", "", "xyz", ""))
                    .podAntiAffinityExists("zone", "abc")
                    .podAntiAffinityExists("zone", "def")
                    .info()),
            OK,
            ANTI),
        single(
            "symmetry b2: both match each other partially, the incoming pod's rule is reported",
            incoming()
                .labels(Map.of("def", "", "xyz", ""))
                .podAntiAffinityExists("zone", "abc")
                .podAntiAffinityExists("zone", "def")
                .info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("node1")
                    .labels(Map.of("abc", "", "xyz", ""))
                    .podAntiAffinityExists("zone", "abc")
                    .podAntiAffinityExists("zone", "def")
                    .info()),
            OK,
            ANTI),
        single(
            "an invalid label value in a required affinity term fails PreFilter as unresolvable",
            incoming()
                .labels(SERVICE_SCAN)
                .podAffinityIn("region", "service", "{{.bad-value.}}")
                .podAffinityIn("node", "service", "antivirusscan", "value2")
                .info(),
            List.of(),
            parseError(),
            null),
        single(
            "an invalid label value in a later required affinity term fails PreFilter too",
            incoming()
                .labels(SERVICE_SCAN)
                .podAffinityIn("region", "service", "foo")
                .podAffinityIn("node", "service", "{{.bad-value.}}")
                .info(),
            List.of(),
            parseError(),
            null),
        single(
            "affinity with a namespace selector sees pods of the selected namespaces",
            pod("", SECURITY_S1, requiredAffinity(term("region", scanOrValue2, null, teamIn1))),
            List.of(pod("subteam1.team1", "node1", SERVICE_SCAN, null)),
            OK,
            OK),
        single(
            "affinity with a namespace selector ignores pods of other namespaces",
            pod("", SECURITY_S1, requiredAffinity(term("region", scanOrValue2, null, teamIn1))),
            List.of(pod("subteam1.team2", "node1", SERVICE_SCAN, null)),
            OK,
            AFFINITY),
        single(
            "anti-affinity with a matching namespace selector rejects the node",
            pod(
                "subteam1.team1",
                "",
                SECURITY_S1,
                requiredAntiAffinity(term("zone", scanOrValue2, null, teamIn1))),
            List.of(pod("subteam2.team1", "node1", SERVICE_SCAN, null)),
            OK,
            ANTI),
        single(
            "anti-affinity with an empty namespace selector covers every namespace",
            pod(
                "subteam1.team1",
                "",
                SECURITY_S1,
                requiredAntiAffinity(term("zone", scanOrValue2, null, selector()))),
            List.of(pod("subteam2.team1", "node1", SERVICE_SCAN, null)),
            OK,
            ANTI),
        single(
            "anti-affinity with a non-matching namespace selector fits",
            pod(
                "subteam1.team1",
                "",
                SECURITY_S1,
                requiredAntiAffinity(term("zone", scanOrValue2, null, teamIn1))),
            List.of(pod("subteam1.team2", "node1", SERVICE_SCAN, null)),
            OK,
            OK));
  }

  private static Status parseError() {
    return Status.unresolvable(
            "parsing pod: requiredAffinityTerms: invalid label value: \"{{.bad-value.}}\"")
        .withPlugin(NAME);
  }

  private static Node n(String name, Map<String, String> labels) {
    return node(name, labels);
  }

  private static Case multi(
      String name, PodInfo pod, List<PodInfo> pods, List<Node> nodes, Status... want) {
    return new Case(name, pod, pods, nodes, OK, List.of(want));
  }

  static Stream<Case> multipleNodeCases() {
    Map<String, String> china = Map.of("region", "China");
    Map<String, String> chinaAz1 = Map.of("region", "China", "az", "az1");
    Map<String, String> india = Map.of("region", "India");
    Map<String, String> fooBar = Map.of("foo", "bar");
    List<Node> abZ1Z2 =
        List.of(
            n("nodeA", Map.of("region", "r1", "zone", "z1", "hostname", "nodeA")),
            n("nodeB", Map.of("region", "r1", "zone", "z2", "hostname", "nodeB")));
    List<Node> abSameZone =
        List.of(
            n("nodeA", Map.of("region", "r1", "zone", "z1", "hostname", "nodeA")),
            n("nodeB", Map.of("region", "r1", "zone", "z1", "hostname", "nodeB")));
    List<Node> chinaChinaIndia =
        List.of(n("nodeA", china), n("nodeB", chinaAz1), n("nodeC", india));
    Map<String, String> fooAndBar = Map.of("foo", "", "bar", "");
    return Stream.of(
        multi(
            "every node sharing the topology value of a node with a matching pod fits",
            incoming().podAffinityIn("region", "foo", "bar").info(),
            List.of(pod("node1", fooBar, null)),
            List.of(n("node1", china), n("node2", chinaAz1), n("node3", india)),
            OK,
            OK,
            AFFINITY),
        multi(
            "the first pod of a group that matches its own terms may go to any node with the topology keys",
            incoming()
                .labels(Map.of("foo", "bar", "service", "securityscan"))
                .podAffinityIn("zone", "foo", "bar")
                .podAffinityIn("zone", "service", "securityscan")
                .info(),
            List.of(pod("nodeA", fooBar, null)),
            List.of(
                n("nodeA", Map.of("zone", "az1", "hostname", "h1")),
                n("nodeB", Map.of("zone", "az2", "hostname", "h2"))),
            OK,
            OK),
        multi(
            "the first pod of a group still needs nodes labelled with the requested topology keys",
            incoming()
                .labels(Map.of("foo", "bar", "service", "securityscan"))
                .podAffinityIn("zone", "foo", "bar")
                .podAffinityIn("zone", "service", "securityscan")
                .info(),
            List.of(pod("nodeA", fooBar, null)),
            List.of(
                n("nodeA", Map.of("zoneLabel", "az1", "hostname", "h1")),
                n("nodeB", Map.of("zoneLabel", "az2", "hostname", "h2"))),
            AFFINITY,
            AFFINITY),
        multi(
            "anti-affinity rejects every node sharing the region of a matching pod",
            incoming().podAntiAffinityIn("region", "foo", "abc").info(),
            List.of(pod("nodeA", Map.of("foo", "abc"), null)),
            List.of(
                n("nodeA", Map.of("region", "r1", "hostname", "nodeA")),
                n("nodeB", Map.of("region", "r1", "hostname", "nodeB"))),
            ANTI,
            ANTI),
        multi(
            "anti-affinity rejects a node when any one of its terms matches",
            incoming()
                .podAntiAffinityIn("region", "foo", "abc")
                .podAntiAffinityIn("zone", "service", "securityscan")
                .info(),
            List.of(pod("nodeA", Map.of("foo", "abc", "service", "securityscan"), null)),
            abZ1Z2,
            ANTI,
            ANTI),
        multi(
            "anti-affinity leaves nodes of another region schedulable",
            incoming().podAntiAffinityIn("region", "foo", "abc").info(),
            List.of(pod("nodeA", Map.of("foo", "abc"), null)),
            chinaChinaIndia,
            ANTI,
            ANTI,
            OK),
        multi(
            "pods of other namespaces neither trigger nor impose anti-affinity",
            pod(
                "NS1",
                "",
                Map.of("foo", "123"),
                requiredAntiAffinity(term("region", selector(req("foo", "In", "bar"))))),
            List.of(
                pod("NS1", "nodeA", fooBar, null),
                pod(
                    "NS2",
                    "nodeC",
                    Map.of(),
                    requiredAntiAffinity(term("region", selector(req("foo", "In", "123")))))),
            chinaChinaIndia,
            ANTI,
            ANTI,
            OK),
        new Case(
            "an existing anti-affinity term over a key no node has counts nothing, so PreFilter skips",
            incoming().label("foo", "").info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("nodeA")
                    .podAntiAffinityExists("invalid-node-label", "foo")
                    .info()),
            abSameZone,
            SKIP,
            List.of()),
        multi(
            "the incoming pod's anti-affinity over a key no node has rejects nothing",
            incoming().node("nodeA").podAntiAffinityExists("invalid-node-label", "foo").info(),
            List.of(pod("nodeA", Map.of("foo", ""), null)),
            abSameZone,
            OK,
            OK),
        multi(
            "existing pods' anti-affinity terms in different topologies reject every node they cover",
            incoming().labels(fooAndBar).info(),
            List.of(
                MakePod.pod().name("e1").node("nodeA").podAntiAffinityExists("zone", "foo").info(),
                MakePod.pod()
                    .name("e2")
                    .node("nodeA")
                    .podAntiAffinityExists("region", "bar")
                    .info()),
            abZ1Z2,
            EXISTING,
            EXISTING),
        multi(
            "the incoming pod violating one of its anti-affinity terms on each node fits nowhere",
            incoming()
                .podAntiAffinityExists("zone", "foo")
                .podAntiAffinityExists("region", "bar")
                .info(),
            List.of(pod("nodeA", Map.of("foo", ""), null), pod("nodeB", Map.of("bar", ""), null)),
            abZ1Z2,
            ANTI,
            ANTI),
        multi(
            "an existing term counts only when both its selector and its topology key match",
            incoming().labels(fooAndBar).info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("nodeA")
                    .podAntiAffinityExists("invalid-node-label", "foo")
                    .podAntiAffinityExists("zone", "bar")
                    .info()),
            abZ1Z2,
            EXISTING,
            OK),
        multi(
            "an incoming term counts only when both its selector and its topology key match",
            incoming()
                .podAntiAffinityExists("invalid-node-label", "foo")
                .podAntiAffinityExists("zone", "bar")
                .info(),
            List.of(pod("nodeA", fooAndBar, null)),
            abZ1Z2,
            ANTI,
            OK),
        multi(
            "existing terms with valid keys reject every node of their topologies",
            incoming().labels(fooAndBar).info(),
            List.of(
                MakePod.pod()
                    .name("e")
                    .node("nodeA")
                    .podAntiAffinityExists("region", "foo")
                    .podAntiAffinityExists("zone", "bar")
                    .info()),
            abZ1Z2,
            EXISTING,
            EXISTING),
        multi(
            "incoming terms with valid keys reject every node of their topologies",
            incoming()
                .podAntiAffinityExists("region", "foo")
                .podAntiAffinityExists("zone", "bar")
                .info(),
            List.of(pod("nodeA", fooAndBar, null)),
            abZ1Z2,
            ANTI,
            ANTI),
        multi(
            "only the node outside the zones of the existing pods' matching terms fits",
            incoming().labels(fooAndBar).info(),
            List.of(
                MakePod.pod()
                    .name("e1")
                    .node("nodeA")
                    .podAntiAffinityExists("zone", "foo")
                    .podAntiAffinityExists("zone", "labelA")
                    .info(),
                MakePod.pod()
                    .name("e2")
                    .node("nodeB")
                    .podAntiAffinityExists("zone", "bar")
                    .podAntiAffinityExists("zone", "labelB")
                    .info()),
            List.of(
                abZ1Z2.get(0),
                abZ1Z2.get(1),
                n("nodeC", Map.of("region", "r1", "zone", "z3", "hostname", "nodeC"))),
            EXISTING,
            EXISTING,
            OK),
        multi(
            "affinity terms are matched first, then every topology key is checked",
            incoming().podAffinityExists("region", "foo").podAffinityExists("zone", "bar").info(),
            List.of(pod("nodeA", fooAndBar, null)),
            abSameZone,
            OK,
            OK),
        multi(
            "all affinity terms must be matched by the same pod",
            incoming().podAffinityExists("region", "foo").podAffinityExists("zone", "bar").info(),
            List.of(pod("nodeA", Map.of("foo", ""), null), pod("nodeB", Map.of("bar", ""), null)),
            abZ1Z2,
            AFFINITY,
            AFFINITY),
        multi(
            "terminating pods still count, as upstream does not exclude them",
            incoming().podAntiAffinityIn("region", "foo", "abc").info(),
            List.of(MakePod.pod().name("t").node("nodeA").label("foo", "abc").terminating().info()),
            chinaChinaIndia,
            ANTI,
            ANTI,
            OK),
        multi(
            "a topology label with an empty value is a topology value like any other",
            incoming().podAntiAffinityIn("rack", "foo", "abc").info(),
            List.of(pod("nodeA", Map.of("foo", "abc"), null)),
            List.of(
                n("nodeA", Map.of("rack", "")),
                n("nodeB", Map.of("rack", "")),
                n("nodeC", Map.of("rack", "r2"))),
            ANTI,
            ANTI,
            OK),
        multi(
            "an empty label selector matches every pod in the term's namespaces",
            incoming().podAntiAffinityTerm(term("region", selector())).info(),
            List.of(pod("nodeA", Map.of(), null), pod("other", "nodeC", Map.of(), null)),
            chinaChinaIndia,
            ANTI,
            ANTI,
            OK),
        multi(
            "a missing label selector matches no pod",
            incoming().podAntiAffinityTerm(term("region", null)).info(),
            List.of(pod("nodeA", Map.of(), null)),
            chinaChinaIndia,
            OK,
            OK,
            OK));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"singleNodeCases", "multipleNodeCases"})
  void preFilterThenFilter(Case c) {
    ObjectStore store = Fixtures.teamNamespaces();
    store.put(Fixtures.namespace("NS1", Map.of()));
    InterPodAffinity plugin = Fixtures.plugin("{}", store);
    List<NodeInfo> infos = Fixtures.nodeInfos(c.pods(), c.nodes());
    CycleState state = TestFrameworks.cycleState(infos);

    Status preFilter = plugin.preFilter(state, c.pod()).status();

    assertThat(preFilter).isEqualTo(c.wantPreFilter());
    if (!preFilter.isSuccess()) {
      return;
    }
    List<Status> got = new ArrayList<>();
    for (NodeInfo n : infos) {
      got.add(plugin.filter(state, c.pod(), n));
    }
    assertThat(got).isEqualTo(c.wantFilter());
  }

  @Test
  void filterWithoutPreFilterFailsWithUpstreamsMessage() {
    InterPodAffinity plugin = Fixtures.plugin("{}", new ObjectStore());
    NodeInfo node = MakeNode.node().name("n").info();
    CycleState state = TestFrameworks.cycleState(List.of(node));

    assertThatThrownBy(() -> plugin.filter(state, MakePod.pod().name("p").info(), node))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
  }

  @Test
  void preFilterWritesNoStateWhenItSkips() {
    InterPodAffinity plugin = Fixtures.plugin("{}", new ObjectStore());
    CycleState state = TestFrameworks.cycleState(List.of(MakeNode.node().name("n").info()));

    assertThat(plugin.preFilter(state, MakePod.pod().name("p").info()).status())
        .isEqualTo(Status.skip());
    assertThat(state.readOrNull(InterPodAffinity.PRE_FILTER_STATE_KEY)).isNull();
  }
}
