package io.schedext.plugins.defaultpreemption;

import static io.schedext.plugins.defaultpreemption.Fixtures.HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.LARGE;
import static io.schedext.plugins.defaultpreemption.Fixtures.LOW;
import static io.schedext.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.schedext.plugins.defaultpreemption.Fixtures.MID;
import static io.schedext.plugins.defaultpreemption.Fixtures.ONE_POD;
import static io.schedext.plugins.defaultpreemption.Fixtures.SMALL;
import static io.schedext.plugins.defaultpreemption.Fixtures.TEST_PLUGIN;
import static io.schedext.plugins.defaultpreemption.Fixtures.VERY_HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.schedext.plugins.defaultpreemption.Fixtures.node;
import static io.schedext.plugins.defaultpreemption.Fixtures.pdb;
import static io.schedext.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PostFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DefaultPreemption run as the framework's PostFilter (upstream's TestPostFilter and TestPreempt,
 * without the extender and pod-group cases): the node proposed and its victims, or the exact status
 * text when preemption cannot help. The dry run always starts at the first node.
 */
class PostFilterTest {

  /**
   * What the PostFilter answers.
   *
   * @param status the status, attributed to DefaultPreemption unless Success
   * @param nominated the node to nominate; "" clears the nomination; null leaves it as is
   * @param victims the victim names, most important first
   */
  record Want(Status status, String nominated, List<String> victims) {
    static Want node(String node, String... victims) {
      return new Want(Status.success(), node, List.of(victims));
    }

    static Want unschedulable(String message) {
      return new Want(
          Status.unschedulable("preemption: " + message).withPlugin(DefaultPreemption.NAME),
          "",
          List.of());
    }

    static Want unchanged(Status s) {
      return new Want(s.withPlugin(DefaultPreemption.NAME), null, List.of());
    }
  }

  record Case(
      String name,
      List<String> plugins,
      PodWrapper pod,
      List<Node> nodes,
      List<Pod> pods,
      List<PodDisruptionBudget> pdbs,
      List<Pod> nominated,
      Map<String, Status> statuses,
      Want want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<String> FIT = List.of(Names.NODE_RESOURCES_FIT, TEST_PLUGIN);
  private static final Map<String, String> NODE_RES = Map.of("cpu", "200m", "memory", "400");

  /** Every named node rejected as Unschedulable (so preemption may help there). */
  private static Map<String, Status> unschedulable(String... nodes) {
    Map<String, Status> m = new LinkedHashMap<>();
    for (String n : nodes) {
      m.put(n, Status.unschedulable());
    }
    return m;
  }

  private static Case fit(
      String name,
      PodWrapper pod,
      List<Node> nodes,
      List<Pod> pods,
      Map<String, Status> statuses,
      Want want) {
    return new Case(name, FIT, pod, nodes, pods, List.of(), List.of(), statuses, want);
  }

  private static List<Node> veryLarge(String... names) {
    return Stream.of(names).map(n -> node(n, VERY_LARGE).obj()).toList();
  }

  static Stream<Case> cases() {
    Node onePod1 = node("node1", ONE_POD).obj();
    Node onePod2 = node("node2", ONE_POD).obj();
    String violating = "test.kubernetes.io/is-violating-pdb";
    List<Pod> basic =
        List.of(
            pod("p1.1", LOW).node("node1").req(SMALL).obj(),
            pod("p1.2", LOW).node("node1").req(SMALL).obj(),
            pod("p2.1", HIGH).node("node2").req(LARGE).obj(),
            pod("p3.1", MID).node("node3").req(MEDIUM).obj());
    Map<String, Status> withUnresolvable = unschedulable("node1", "node2");
    withUnresolvable.put("node4", Status.unresolvable());
    return Stream.of(
        fit(
            "a pod of higher priority is nominated to the node where its victim runs",
            pod("p", HIGH),
            List.of(onePod1),
            List.of(pod("p1", LOW).node("node1").obj()),
            unschedulable("node1"),
            Want.node("node1", "p1")),
        fit(
            "a pod of the same priority finds no victims",
            pod("p", LOW),
            List.of(onePod1),
            List.of(pod("p1", LOW).node("node1").obj()),
            unschedulable("node1"),
            Want.unschedulable(
                "0/1 nodes are available: 1 No preemption victims found for incoming pod.")),
        fit(
            "a node its filters found unresolvable is not tried",
            pod("p", HIGH),
            List.of(onePod1),
            List.of(pod("p1", LOW).node("node1").obj()),
            Map.of("node1", Status.unresolvable()),
            Want.unschedulable(
                "0/1 nodes are available: 1 Preemption is not helpful for scheduling.")),
        fit(
            "a node without a filter status counts as unresolvable",
            pod("p", HIGH),
            List.of(onePod1),
            List.of(pod("p1", LOW).node("node1").obj()),
            Map.of(),
            Want.unschedulable(
                "0/1 nodes are available: 1 Preemption is not helpful for scheduling.")),
        fit(
            "only the node with a lower-priority pod can help",
            pod("p", MID),
            List.of(onePod1, onePod2),
            List.of(pod("p1", HIGH).node("node1").obj(), pod("p2", LOW).node("node2").obj()),
            unschedulable("node1", "node2"),
            Want.node("node2", "p2")),
        new Case(
            "both nodes break a budget once; node2 wins with the lower highest victim priority (mid against "
                + "node1's high, whose budget allows any number of disruptions but whose low pod breaks the other)",
            FIT,
            pod("p", VERY_HIGH),
            List.of(onePod1, onePod2),
            List.of(
                pod("p1", HIGH).node("node1").label(violating, "non-violating").obj(),
                pod("p2", LOW).node("node1").label(violating, "violating").obj(),
                pod("p3", MID).node("node2").label(violating, "violating").obj()),
            List.of(
                pdb("violating-pdb", Map.of(violating, "violating"), 0),
                pdb("non-violating-pdb", Map.of(violating, "non-violating"), Integer.MAX_VALUE)),
            List.of(),
            unschedulable("node1", "node2"),
            Want.node("node2", "p3")),
        fit(
            "removing every lower-priority pod still leaves too little cpu on both nodes",
            pod("p", HIGH).req(LARGE),
            List.of(node("node1", NODE_RES).obj(), node("node2", NODE_RES).obj()),
            List.of(pod("p1", LOW).node("node1").obj(), pod("p2", LOW).node("node2").obj()),
            unschedulable("node1", "node2"),
            Want.unschedulable("0/2 nodes are available: 2 Insufficient cpu.")),
        fit(
            "the message counts each node's reason: no victims on two nodes, too little cpu on one",
            pod("p", HIGH).req(LARGE),
            List.of(onePod1, node("node2", NODE_RES).obj(), node("node3", ONE_POD).obj()),
            List.of(
                pod("p1", HIGH).node("node1").obj(),
                pod("p2", LOW).node("node2").obj(),
                pod("p3", HIGH).node("node3").obj()),
            unschedulable("node1", "node2", "node3"),
            Want.unschedulable(
                "0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for "
                    + "incoming pod.")),
        fit(
            "unresolvable and status-less nodes are counted as not helpful next to the nodes that were tried",
            pod("p", HIGH).req(LARGE),
            Stream.of("node1", "node2", "node3", "node4")
                .map(n -> node(n, NODE_RES).obj())
                .toList(),
            List.of(pod("p1", LOW).node("node1").obj(), pod("p2", LOW).node("node2").obj()),
            withUnresolvable,
            Want.unschedulable(
                "0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for "
                    + "scheduling.")),
        fit(
            "a RemovePod failure on the only node is an Error and leaves the nomination alone",
            pod("p", HIGH).req(LARGE),
            List.of(node("node1", LARGE).label("error", "true").obj()),
            List.of(pod("p1", LOW).node("node1").obj()),
            unschedulable("node1"),
            Want.unchanged(
                Status.error(
                    "preemption: running RemovePod on PreFilter plugin \"test-plugin\": failed to remove pod: p"))),
        fit(
            "a RemovePod failure on one node does not stop the other from being chosen",
            pod("p", HIGH).req(LARGE),
            List.of(node("node1", LARGE).label("error", "true").obj(), node("node2", LARGE).obj()),
            List.of(
                pod("p1", LOW).node("node1").obj(), pod("p2", LOW).node("node2").req(MEDIUM).obj()),
            unschedulable("node1", "node2"),
            Want.node("node2", "p2")),
        fit(
            "a rejected node where the pod fits without evicting anything is an Error (kube-scheduler's check)",
            pod("p", HIGH),
            veryLarge("node1"),
            List.of(pod("p1", LOW).node("node1").obj()),
            unschedulable("node1"),
            Want.unchanged(
                Status.error("preemption: expected at least one victim pod on node \"node1\""))),
        fit(
            "a snapshot without nodes is an Error",
            pod("p", HIGH),
            List.of(),
            List.of(),
            Map.of(),
            Want.unchanged(Status.error("preemption: no nodes available"))),
        fit(
            "both low pods go on node1, whose highest victim priority is lowest",
            pod("p", HIGH).req(VERY_LARGE).preemptionPolicy("PreemptLowerPriority"),
            veryLarge("node1", "node2", "node3"),
            basic,
            unschedulable("node1", "node2", "node3"),
            Want.node("node1", "p1.1", "p1.2")),
        fit(
            "a pod with preemptionPolicy Never does not preempt and keeps its nomination",
            pod("p", HIGH).req(VERY_LARGE).preemptionPolicy("Never"),
            veryLarge("node1", "node2", "node3"),
            basic,
            unschedulable("node1", "node2", "node3"),
            Want.unchanged(
                Status.unschedulable("preemption: not eligible due to preemptionPolicy=Never."))),
        fit(
            "a pod without preemptionPolicy preempts",
            pod("p", HIGH).req(VERY_LARGE),
            veryLarge("node1", "node2", "node3"),
            basic,
            unschedulable("node1", "node2", "node3"),
            Want.node("node1", "p1.1", "p1.2")),
        new Case(
            "spread over zones: evicting the low pod of node-b is the only way; node-a and node-x hold pods of "
                + "the preemptor's priority",
            List.of(Names.POD_TOPOLOGY_SPREAD),
            pod("p", HIGH)
                .label("foo", "")
                .spreadConstraint(1, "zone", "DoNotSchedule", PodWrapper.existsSelector("foo"))
                .spreadConstraint(1, "hostname", "DoNotSchedule", PodWrapper.existsSelector("foo")),
            List.of(
                node("node-a", VERY_LARGE).label("zone", "zone1").obj(),
                node("node-b", VERY_LARGE).label("zone", "zone1").obj(),
                node("node-x", VERY_LARGE).label("zone", "zone2").obj()),
            List.of(
                pod("p-a1", HIGH).node("node-a").label("foo", "").obj(),
                pod("p-a2", HIGH).node("node-a").label("foo", "").obj(),
                pod("p-b1", LOW).node("node-b").label("foo", "").obj(),
                pod("p-x1", HIGH).node("node-x").label("foo", "").obj(),
                pod("p-x2", HIGH).node("node-x").label("foo", "").obj()),
            List.of(),
            List.of(),
            unschedulable("node-a", "node-b", "node-x"),
            Want.node("node-b", "p-b1")),
        new Case(
            "a pod nominated to node1 with a higher priority keeps its room there, so only node2 can help",
            FIT,
            pod("p", HIGH).req(LARGE),
            veryLarge("node1", "node2"),
            List.of(
                pod("v1", LOW).node("node1").req(LARGE).obj(),
                pod("v2", MID).node("node2").req(LARGE).obj()),
            List.of(),
            List.of(pod("n1", VERY_HIGH).nominatedNodeName("node1").req(LARGE).obj()),
            unschedulable("node1", "node2"),
            Want.node("node2", "v2")),
        new Case(
            "a nominated pod of the preemptor's own priority keeps its room too",
            FIT,
            pod("p", HIGH).req(LARGE),
            veryLarge("node1", "node2"),
            List.of(
                pod("v1", LOW).node("node1").req(LARGE).obj(),
                pod("v2", MID).node("node2").req(LARGE).obj()),
            List.of(),
            List.of(pod("n1", HIGH).nominatedNodeName("node1").req(LARGE).obj()),
            unschedulable("node1", "node2"),
            Want.node("node2", "v2")),
        new Case(
            "a nominated pod of lower priority is ignored: node1 with the lower victim wins",
            FIT,
            pod("p", HIGH).req(LARGE),
            veryLarge("node1", "node2"),
            List.of(
                pod("v1", LOW).node("node1").req(LARGE).obj(),
                pod("v2", MID).node("node2").req(LARGE).obj()),
            List.of(),
            List.of(pod("n1", LOW).nominatedNodeName("node1").req(LARGE).obj()),
            unschedulable("node1", "node2"),
            Want.node("node1", "v1")),
        new Case(
            "required affinity to a lower-priority pod cannot be met by preemption, which removes that pod "
                + "first (upstream does not support it)",
            List.of(Names.NODE_RESOURCES_FIT, Names.INTER_POD_AFFINITY),
            pod("p", HIGH).podAffinityIn("hostname", "app", "db"),
            List.of(onePod1),
            List.of(pod("db", LOW).node("node1").label("app", "db").obj()),
            List.of(),
            List.of(),
            unschedulable("node1"),
            Want.unschedulable(
                "0/1 nodes are available: 1 node(s) didn't match pod affinity rules.")),
        new Case(
            "required anti-affinity to a lower-priority pod evicts exactly that pod; its neighbour stays",
            List.of(Names.NODE_RESOURCES_FIT, Names.INTER_POD_AFFINITY),
            pod("p", HIGH).req(SMALL).podAntiAffinityIn("hostname", "app", "web"),
            veryLarge("node1"),
            List.of(
                pod("web", LOW).node("node1").label("app", "web").req(SMALL).obj(),
                pod("other", LOW).node("node1").label("app", "other").req(SMALL).obj()),
            List.of(),
            List.of(),
            unschedulable("node1"),
            Want.node("node1", "web")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void postFilter(Case c) {
    ObjectStore store = new ObjectStore();
    c.pdbs().forEach(store::put);
    List<String> plugins = new ArrayList<>(c.plugins());
    plugins.add(DefaultPreemption.NAME);
    Framework fw =
        Fixtures.framework(store, Fixtures.nominator(c.nominated()), n -> 0, null, plugins, null);
    PodInfo pod = c.pod().info();
    CycleState state = fw.newCycleState(Snapshot.of(Fixtures.nodeInfos(c.nodes(), c.pods())));
    fw.runPreFilterPlugins(state, pod);

    PostFilterResult r = fw.runPostFilterPlugins(state, pod, c.statuses());

    assertThat(
            new Want(
                r.status(),
                r.nominatedNodeName(),
                r.victims().stream().map(PodInfo::name).toList()))
        .isEqualTo(c.want());
  }
}
