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
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ServiceAffinityFilterTest {

  static final Status MISMATCH =
      Status.unschedulable(ServiceAffinity.ERR_REASON).withPlugin(Names.SERVICE_AFFINITY);
  static final Status OK = Status.success();

  static final Map<String, String> SELECTOR = Map.of("foo", "bar");
  static final Map<String, Map<String, String>> NODES =
      ordered(
          entry("machine1", Map.of("region", "r1", "zone", "z11")),
          entry("machine2", Map.of("region", "r1", "zone", "z12")),
          entry("machine3", Map.of("region", "r2", "zone", "z21")),
          entry("machine4", Map.of("region", "r2", "zone", "z22")),
          entry("machine5", Map.of("region", "r2", "zone", "z22")),
          entry("machine6", Map.of()));

  record Case(
      String name,
      List<String> labels,
      PodInfo pod,
      List<PodInfo> pods,
      List<Service> services,
      String node,
      Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodInfo servicePod(String name, String node) {
    return MakePod.pod().name(name).labels(SELECTOR).node(node).info();
  }

  static Stream<Case> cases() {
    PodInfo plain = MakePod.pod().name("pending").info();
    PodInfo labeled = MakePod.pod().name("pending").labels(SELECTOR).info();
    PodInfo labeledNs1 = MakePod.pod().name("pending").namespace("ns1").labels(SELECTOR).info();
    List<Service> svc = List.of(service("default", "s1", SELECTOR));
    List<String> region = List.of("region");
    List<String> regionZone = List.of("region", "zone");
    return Stream.of(
        new Case(
            "with nothing scheduled any node fits",
            region,
            plain,
            List.of(),
            List.of(),
            "machine1",
            OK),
        new Case(
            "a node selector fixing the node's region fits",
            region,
            MakePod.pod().name("pending").nodeSelector(Map.of("region", "r1")).info(),
            List.of(),
            List.of(),
            "machine1",
            OK),
        new Case(
            "a node selector fixing another region is rejected",
            region,
            MakePod.pod().name("pending").nodeSelector(Map.of("region", "r2")).info(),
            List.of(),
            List.of(),
            "machine1",
            MISMATCH),
        new Case(
            "a service pod on the same node fits",
            region,
            labeled,
            List.of(servicePod("p1", "machine1")),
            svc,
            "machine1",
            OK),
        new Case(
            "a service pod on another node of the same region fits",
            region,
            labeled,
            List.of(servicePod("p1", "machine2")),
            svc,
            "machine1",
            OK),
        new Case(
            "a service pod on a node of another region is rejected",
            region,
            labeled,
            List.of(servicePod("p1", "machine3")),
            svc,
            "machine1",
            MISMATCH),
        new Case(
            "a service in another namespace does not pin the region",
            region,
            labeledNs1,
            List.of(
                MakePod.pod().name("p1").namespace("ns1").labels(SELECTOR).node("machine3").info()),
            List.of(service("ns2", "s1", SELECTOR)),
            "machine1",
            OK),
        new Case(
            "a pod in another namespace does not pin the region",
            region,
            labeledNs1,
            List.of(
                MakePod.pod().name("p1").namespace("ns2").labels(SELECTOR).node("machine3").info()),
            List.of(service("ns1", "s1", SELECTOR)),
            "machine1",
            OK),
        new Case(
            "service and pod in the pod's namespace pin another region and reject",
            region,
            labeledNs1,
            List.of(
                MakePod.pod().name("p1").namespace("ns1").labels(SELECTOR).node("machine3").info()),
            List.of(service("ns1", "s1", SELECTOR)),
            "machine1",
            MISMATCH),
        new Case(
            "with two labels a node matching only the region is rejected",
            regionZone,
            labeled,
            List.of(servicePod("p1", "machine2")),
            svc,
            "machine1",
            MISMATCH),
        new Case(
            "with two labels a node matching both fits",
            regionZone,
            labeled,
            List.of(servicePod("p1", "machine5")),
            svc,
            "machine4",
            OK),
        new Case(
            "without a service the existing pods pin nothing",
            region,
            labeled,
            List.of(servicePod("p1", "machine3")),
            List.of(),
            "machine1",
            OK),
        new Case(
            "a value from the node selector wins over the existing pods' node",
            region,
            MakePod.pod()
                .name("pending")
                .labels(SELECTOR)
                .nodeSelector(Map.of("region", "r1"))
                .info(),
            List.of(servicePod("p1", "machine3")),
            svc,
            "machine1",
            OK),
        new Case(
            "missing values are copied from the first pod's node, the node selector's are kept",
            regionZone,
            MakePod.pod()
                .name("pending")
                .labels(SELECTOR)
                .nodeSelector(Map.of("region", "r2"))
                .info(),
            List.of(servicePod("p1", "machine5")),
            svc,
            "machine4",
            OK),
        new Case(
            "a copied zone still rejects a node in the selected region but another zone",
            regionZone,
            MakePod.pod()
                .name("pending")
                .labels(SELECTOR)
                .nodeSelector(Map.of("region", "r2"))
                .info(),
            List.of(servicePod("p1", "machine5")),
            svc,
            "machine3",
            MISMATCH),
        new Case(
            "the first matching pod in snapshot order pins the values, even against a node with another one",
            region,
            labeled,
            List.of(servicePod("p1", "machine3"), servicePod("p2", "machine1")),
            svc,
            "machine3",
            MISMATCH),
        new Case(
            "a node without the pinned label is rejected",
            region,
            labeled,
            List.of(servicePod("p1", "machine1")),
            svc,
            "machine6",
            MISMATCH),
        new Case(
            "a label the first pod's node lacks is not pinned",
            region,
            labeled,
            List.of(servicePod("p1", "machine6")),
            svc,
            "machine3",
            OK),
        new Case(
            "terminating pods still pin the values",
            region,
            labeled,
            List.of(
                MakePod.pod().name("p1").labels(SELECTOR).node("machine3").terminating().info()),
            svc,
            "machine1",
            MISMATCH),
        new Case(
            "a pod whose labels lack one of the pod's labels pins nothing",
            region,
            MakePod.pod().name("pending").labels(Map.of("foo", "bar", "extra", "x")).info(),
            List.of(servicePod("p1", "machine3")),
            svc,
            "machine1",
            OK),
        new Case(
            "a pod without labels takes every pod of its namespace as matching",
            region,
            plain,
            List.of(MakePod.pod().name("p1").label("other", "x").node("machine3").info()),
            List.of(service("default", "everything", Map.of())),
            "machine1",
            MISMATCH),
        new Case(
            "a pod without a UID on the filtered node is ignored, as upstream's FilterOutPods",
            List.of("zone"),
            labeled,
            List.of(
                MakePod.pod().name("p1").uid("").labels(SELECTOR).node("machine3").info(),
                servicePod("p2", "machine4")),
            svc,
            "machine3",
            MISMATCH),
        new Case(
            "a pod with a UID on the filtered node pins its own node's values",
            List.of("zone"),
            labeled,
            List.of(servicePod("p1", "machine3"), servicePod("p2", "machine4")),
            svc,
            "machine3",
            OK));
  }

  static ServiceAffinity plugin(List<Service> services, String argsJson) {
    return ServiceAffinity.create(
        PluginArgs.of(Names.SERVICE_AFFINITY, TestFrameworks.json(argsJson)),
        TestFrameworks.handle(Fixtures.store(services)));
  }

  static String labelsArgs(List<String> labels) {
    return "{\"affinityLabels\":["
        + String.join(",", labels.stream().map(l -> "\"" + l + "\"").toList())
        + "]}";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter(Case c) {
    List<NodeInfo> nodes = nodes(NODES, c.pods());
    CycleState state = TestFrameworks.cycleState(nodes);
    ServiceAffinity p = plugin(c.services(), labelsArgs(c.labels()));
    assertThat(p.preFilter(state, c.pod()).status()).isEqualTo(Status.success());
    assertThat(p.filter(state, c.pod(), state.snapshot().get(c.node()))).isEqualTo(c.want());
  }

  @Test
  void aPodRemovedFromTheFilteredNodeNoLongerPinsItsValues() {
    PodInfo pending = MakePod.pod().name("pending").labels(SELECTOR).info();
    PodInfo onMachine3 = servicePod("p1", "machine3");
    List<NodeInfo> nodes = nodes(NODES, List.of(onMachine3, servicePod("p2", "machine4")));
    CycleState state = TestFrameworks.cycleState(nodes);
    ServiceAffinity p =
        plugin(List.of(service("default", "s1", SELECTOR)), labelsArgs(List.of("zone")));
    p.preFilter(state, pending);
    NodeInfo machine3 = state.snapshot().get("machine3");
    assertThat(p.filter(state, pending, machine3)).isEqualTo(OK);
    // A preemption dry run removes the pod from a copy of the node only; the state still lists it.
    NodeInfo withoutP1 = machine3.snapshotCopy();
    withoutP1.removePod(onMachine3.uid());
    assertThat(p.filter(state, pending, withoutP1)).isEqualTo(MISMATCH);
  }

  @Test
  void filterWithoutPreFilterIsAnError() {
    ServiceAffinity p = plugin(List.of(), labelsArgs(List.of("region")));
    NodeInfo node = nodes(NODES, List.of()).get(0);
    Status s =
        p.filter(TestFrameworks.cycleState(List.of(node)), MakePod.pod().name("p").info(), node);
    assertThat(s)
        .isEqualTo(
            Status.error("error reading \"PreFilterServiceAffinity\" from cycleState: not found")
                .withPlugin(Names.SERVICE_AFFINITY));
  }

  @Test
  void filterOnANodeInfoWithoutANodeIsAnError() {
    ServiceAffinity p = plugin(List.of(), labelsArgs(List.of("region")));
    CycleState state = TestFrameworks.cycleState(List.of());
    PodInfo pod = MakePod.pod().name("p").info();
    p.preFilter(state, pod);
    assertThat(p.filter(state, pod, new NodeInfo()))
        .isEqualTo(Status.error("node not found").withPlugin(Names.SERVICE_AFFINITY));
  }

  @Test
  void withoutAffinityLabelsPreFilterKeepsNoStateAndFilterPassesEverything() {
    ServiceAffinity p = plugin(List.of(service("default", "s1", SELECTOR)), "{}");
    List<NodeInfo> nodes = nodes(NODES, List.of(servicePod("p1", "machine3")));
    CycleState state = TestFrameworks.cycleState(nodes);
    PodInfo pending = MakePod.pod().name("pending").labels(SELECTOR).info();
    assertThat(p.preFilter(state, pending).status()).isEqualTo(Status.success());
    assertThat(state.keys()).isEmpty();
    assertThat(p.preFilterExtensions()).isNull();
    assertThat(nodes.stream().map(n -> p.filter(state, pending, n)).distinct().toList())
        .containsExactly(OK);
  }

  @Test
  void throughTheFrameworkPreFilterFilterAndScoreWorkTogether() {
    Registry registry = new Registry().register(Names.SERVICE_AFFINITY, ServiceAffinity::create);
    Framework fw =
        TestFrameworks.framework(
            registry,
            Fixtures.store(List.of(service("default", "s1", SELECTOR))),
            List.of(Names.SERVICE_AFFINITY),
            Map.of(
                Names.SERVICE_AFFINITY,
                "{\"affinityLabels\":[\"region\"],\"antiAffinityLabelsPreference\":[\"zone\"]}"));
    List<NodeInfo> nodes = nodes(NODES, List.of(servicePod("p1", "machine3")));
    PodInfo pending = MakePod.pod().name("pending").labels(SELECTOR).info();
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThat(fw.runPreFilterPlugins(state, pending).status()).isEqualTo(Status.success());
    List<String> feasible =
        nodes.stream()
            .filter(n -> fw.runFilterPlugins(state, pending, n).isSuccess())
            .map(NodeInfo::name)
            .toList();
    assertThat(feasible).containsExactly("machine3", "machine4", "machine5");
    List<NodeInfo> feasibleNodes = nodes.stream().filter(n -> feasible.contains(n.name())).toList();
    assertThat(fw.runPreScorePlugins(state, pending, feasibleNodes)).isEqualTo(Status.success());
    // One service pod on machine3 (zone z21): z21 gets 0, the two z22 nodes 100.
    assertThat(fw.runScorePlugins(state, pending, feasibleNodes).totals())
        .containsExactly(0, 100, 100);
  }

  @Test
  void argsAreReadFromTheirJsonNames() {
    ServiceAffinityArgs a =
        PluginArgs.of(
                Names.SERVICE_AFFINITY,
                TestFrameworks.json(
                    "{\"affinityLabels\":[\"region\"],\"antiAffinityLabelsPreference\":[\"zone\"]}"))
            .as(ServiceAffinityArgs.class);
    assertThat(a).isEqualTo(new ServiceAffinityArgs(List.of("region"), List.of("zone")));
    assertThat(PluginArgs.none().as(ServiceAffinityArgs.class))
        .isEqualTo(new ServiceAffinityArgs(List.of(), List.of()));
  }
}
