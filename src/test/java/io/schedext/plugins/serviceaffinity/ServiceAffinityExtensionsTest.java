package io.schedext.plugins.serviceaffinity;

import static io.schedext.plugins.serviceaffinity.Fixtures.nodes;
import static io.schedext.plugins.serviceaffinity.Fixtures.ordered;
import static io.schedext.plugins.serviceaffinity.Fixtures.service;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * AddPod/RemovePod must leave the state as PreFilter would compute it on a snapshot that really
 * holds (or lacks) the pod: same matching pods, and the same Filter verdict on every node.
 */
class ServiceAffinityExtensionsTest {

  static final Map<String, String> SELECTOR = Map.of("foo", "bar");
  static final Map<String, Map<String, String>> NODES =
      ordered(
          entry("nodeA", Map.of("region", "r1", "zone", "z11")),
          entry("nodeB", Map.of("region", "r1", "zone", "z12")),
          entry("nodeC", Map.of("region", "r2", "zone", "z21")));
  static final PodInfo PENDING = MakePod.pod().name("pending").labels(SELECTOR).info();

  record Case(String name, List<PodInfo> existing, PodInfo changed, List<Service> services) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    List<Service> svc = List.of(service("default", "s1", SELECTOR));
    PodInfo p1OnA = MakePod.pod().name("p1").labels(SELECTOR).node("nodeA").info();
    PodInfo p2OnC = MakePod.pod().name("p2").node("nodeC").info();
    PodInfo addedOnB = MakePod.pod().name("addedPod").labels(SELECTOR).node("nodeB").info();
    return Stream.of(
        new Case(
            "without a service the matching pods are still tracked",
            List.of(p1OnA, p2OnC),
            addedOnB,
            List.of()),
        new Case(
            "a service pod joining next to an existing one changes the list, not the pinned node",
            List.of(p1OnA, p2OnC),
            addedOnB,
            svc),
        new Case(
            "the first service pod pins the values of a so far free service",
            List.of(p2OnC),
            addedOnB,
            svc),
        new Case(
            "the only pinning pod leaving frees the service",
            List.of(p2OnC),
            MakePod.pod().name("p3").labels(SELECTOR).node("nodeC").info(),
            svc),
        new Case(
            "a pod in another namespace is ignored",
            List.of(p2OnC),
            MakePod.pod().name("other").namespace("ns1").labels(SELECTOR).node("nodeB").info(),
            svc),
        new Case(
            "a pod lacking the pending pod's labels is ignored",
            List.of(p1OnA),
            MakePod.pod().name("other").label("foo", "baz").node("nodeC").info(),
            svc),
        new Case(
            "a pod carrying more labels than the pending pod counts",
            List.of(p2OnC),
            MakePod.pod().name("more").labels(Map.of("foo", "bar", "x", "y")).node("nodeC").info(),
            svc));
  }

  static ServiceAffinity plugin(List<Service> services) {
    return ServiceAffinity.create(
        PluginArgs.of(
            Names.SERVICE_AFFINITY,
            TestFrameworks.json("{\"affinityLabels\":[\"region\",\"zone\"]}")),
        TestFrameworks.handle(Fixtures.store(services)));
  }

  static CycleState preFiltered(ServiceAffinity p, List<NodeInfo> nodes) {
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThat(p.preFilter(state, PENDING).status()).isEqualTo(Status.success());
    return state;
  }

  static List<Status> filterAll(ServiceAffinity p, CycleState state, List<NodeInfo> nodes) {
    return nodes.stream().map(n -> p.filter(state, PENDING, n)).toList();
  }

  static List<String> matchingKeys(CycleState state) {
    PreFilterState s = (PreFilterState) state.readOrNull(ServiceAffinity.PRE_FILTER_STATE_KEY);
    return s.matchingPods.stream().map(PodInfo::key).sorted().toList();
  }

  static NodeInfo nodeOf(List<NodeInfo> nodes, String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void addPodThenFilterEqualsPreFilterOnASnapshotHoldingThePod(Case c) {
    ServiceAffinity p = plugin(c.services());
    List<NodeInfo> without = nodes(NODES, c.existing());
    List<PodInfo> all = new ArrayList<>(c.existing());
    all.add(c.changed());
    List<NodeInfo> with = nodes(NODES, all);
    CycleState recomputed = preFiltered(p, with);

    CycleState original = preFiltered(p, without);
    List<String> originalKeys = matchingKeys(original);
    CycleState simulated = original.copy();
    NodeInfo target = nodeOf(without, c.changed().nodeName()).snapshotCopy();
    target.addPod(c.changed());
    assertThat(p.addPod(simulated, PENDING, c.changed(), target)).isEqualTo(Status.success());

    assertThat(matchingKeys(simulated)).isEqualTo(matchingKeys(recomputed));
    assertThat(filterAll(p, simulated, with)).isEqualTo(filterAll(p, recomputed, with));
    assertThat(matchingKeys(original))
        .as("the copied state is independent")
        .isEqualTo(originalKeys);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void removePodThenFilterEqualsPreFilterOnASnapshotLackingThePod(Case c) {
    ServiceAffinity p = plugin(c.services());
    List<NodeInfo> without = nodes(NODES, c.existing());
    List<PodInfo> all = new ArrayList<>(c.existing());
    all.add(c.changed());
    List<NodeInfo> with = nodes(NODES, all);
    CycleState recomputed = preFiltered(p, without);

    CycleState simulated = preFiltered(p, with).copy();
    NodeInfo target = nodeOf(with, c.changed().nodeName()).snapshotCopy();
    target.removePod(c.changed().uid());
    assertThat(p.removePod(simulated, PENDING, c.changed(), target)).isEqualTo(Status.success());

    assertThat(matchingKeys(simulated)).isEqualTo(matchingKeys(recomputed));
    assertThat(filterAll(p, simulated, without)).isEqualTo(filterAll(p, recomputed, without));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void addPodThenRemovePodRestoresTheOriginalVerdicts(Case c) {
    ServiceAffinity p = plugin(c.services());
    List<NodeInfo> without = nodes(NODES, c.existing());
    CycleState original = preFiltered(p, without);
    CycleState simulated = original.copy();
    NodeInfo target = nodeOf(without, c.changed().nodeName());
    p.addPod(simulated, PENDING, c.changed(), target);
    p.removePod(simulated, PENDING, c.changed(), target);
    assertThat(matchingKeys(simulated)).isEqualTo(matchingKeys(original));
    assertThat(filterAll(p, simulated, without)).isEqualTo(filterAll(p, original, without));
  }

  @Test
  void theCasesReallyChangeVerdicts() {
    // Guards the table above: adding the first service pod must change some node's verdict.
    ServiceAffinity p = plugin(List.of(service("default", "s1", SELECTOR)));
    List<NodeInfo> without = nodes(NODES, List.of());
    List<NodeInfo> with =
        nodes(NODES, List.of(MakePod.pod().name("a").labels(SELECTOR).node("nodeB").info()));
    assertThat(filterAll(p, preFiltered(p, with), with))
        .isNotEqualTo(filterAll(p, preFiltered(p, without), without));
  }

  @Test
  void aNominatedPodWithoutANodeNameCannotPinValues() {
    // Upstream looks the first matching pod's node up by spec.nodeName, which a nominated pod does
    // not have yet:
    // v1.22 answers "node not found" as an Error, and so do we.
    ServiceAffinity p = plugin(List.of(service("default", "s1", SELECTOR)));
    List<NodeInfo> nodes = nodes(NODES, List.of());
    CycleState state = preFiltered(p, nodes).copy();
    PodInfo nominated =
        MakePod.pod().name("nominated").labels(SELECTOR).nominatedNodeName("nodeA").info();
    NodeInfo nodeA = nodeOf(nodes, "nodeA").snapshotCopy();
    nodeA.addPod(nominated);
    p.addPod(state, PENDING, nominated, nodeA);
    assertThat(p.filter(state, PENDING, nodeA))
        .isEqualTo(Status.error("node not found").withPlugin(Names.SERVICE_AFFINITY));
  }

  @Test
  void extensionsWithoutPreFilterStateAreErrors() {
    ServiceAffinity p = plugin(List.of());
    CycleState empty = TestFrameworks.cycleState(List.of());
    NodeInfo node = nodes(NODES, List.of()).get(0);
    Status want =
        Status.error("error reading \"PreFilterServiceAffinity\" from cycleState: not found")
            .withPlugin(Names.SERVICE_AFFINITY);
    assertThat(p.addPod(empty, PENDING, PENDING, node)).isEqualTo(want);
    assertThat(p.removePod(empty, PENDING, PENDING, node)).isEqualTo(want);
  }
}
