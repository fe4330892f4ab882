package io.schedext.plugins.defaultpreemption;

import static io.schedext.plugins.defaultpreemption.Fixtures.FAKE_FILTER;
import static io.schedext.plugins.defaultpreemption.Fixtures.FALSE_FILTER;
import static io.schedext.plugins.defaultpreemption.Fixtures.HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.LARGE;
import static io.schedext.plugins.defaultpreemption.Fixtures.LOW;
import static io.schedext.plugins.defaultpreemption.Fixtures.MATCH_FILTER;
import static io.schedext.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.schedext.plugins.defaultpreemption.Fixtures.MID;
import static io.schedext.plugins.defaultpreemption.Fixtures.SMALL;
import static io.schedext.plugins.defaultpreemption.Fixtures.TRUE_FILTER;
import static io.schedext.plugins.defaultpreemption.Fixtures.VERY_HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.schedext.plugins.defaultpreemption.Fixtures.epoch;
import static io.schedext.plugins.defaultpreemption.Fixtures.node;
import static io.schedext.plugins.defaultpreemption.Fixtures.pdb;
import static io.schedext.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dry run over nodes (upstream's TestDryRunPreemption): which nodes become candidates, with
 * which victims and PDB violations, and how many Filter calls it takes (so the early stop is
 * pinned). Candidates are compared sorted by node, victims by name, as upstream does. Nodes offer
 * 500m cpu / 500 memory / 32 pods unless a case says otherwise.
 */
class DryRunPreemptionTest {

  /**
   * One expected candidate.
   *
   * @param node the node
   * @param victims the victim names, sorted
   * @param pdbViolations how many victims violate a budget
   */
  record Want(String node, List<String> victims, int pdbViolations) {
    static Want of(String node, String... victims) {
      return new Want(node, List.of(victims), 0);
    }

    Want violating(int n) {
      return new Want(node, victims, n);
    }
  }

  record Case(
      String name,
      List<String> plugins,
      Code fakeCode,
      String args,
      List<Node> nodes,
      List<Pod> pods,
      List<PodDisruptionBudget> pdbs,
      List<PodWrapper> preemptors,
      int[] offsets,
      List<List<Want>> want,
      int[] wantFilterCalls) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<String> FIT = List.of(Names.NODE_RESOURCES_FIT);

  private static List<Node> nodes(String... names) {
    List<Node> out = new ArrayList<>();
    for (String n : names) {
      out.add(node(n, VERY_LARGE).obj());
    }
    return out;
  }

  private static Node zoned(String name, String zone) {
    return node(name, VERY_LARGE).label("zone", zone).obj();
  }

  private static Case simple(
      String name,
      List<String> plugins,
      Code fakeCode,
      List<Node> nodes,
      List<Pod> pods,
      PodWrapper preemptor,
      List<Want> want,
      int calls) {
    return new Case(
        name,
        plugins,
        fakeCode,
        null,
        nodes,
        pods,
        List.of(),
        List.of(preemptor),
        new int[] {0},
        List.of(want),
        new int[] {calls});
  }

  private static Case withPdbs(
      String name, List<Pod> pods, List<PodDisruptionBudget> pdbs, List<Want> want, int calls) {
    return new Case(
        name,
        FIT,
        Code.SUCCESS,
        null,
        nodes("node1"),
        pods,
        pdbs,
        List.of(pod("p", HIGH).req(VERY_LARGE)),
        new int[] {0},
        List.of(want),
        new int[] {calls});
  }

  private static Pod fooPod(String name, String node, int priority) {
    return pod(name, priority).node(node).label("app", "foo").req(MEDIUM).obj();
  }

  static Stream<Case> cases() {
    List<Pod> twoMid =
        List.of(pod("p1", MID).node("node1").obj(), pod("p2", MID).node("node2").obj());
    List<Pod> twoMidLarge =
        List.of(
            pod("p1", MID).node("node1").req(LARGE).obj(),
            pod("p2", MID).node("node2").req(LARGE).obj());
    List<Pod> fiveMid = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      fiveMid.add(pod("p" + i, MID).node("node" + i).req(LARGE).obj());
    }
    List<Node> five = nodes("node1", "node2", "node3", "node4", "node5");
    Map<String, String> foo = Map.of("app", "foo");
    return Stream.of(
        simple(
            "a filter that rejects every node leaves no candidate, whatever is evicted",
            List.of(FALSE_FILTER),
            Code.SUCCESS,
            nodes("node1", "node2"),
            twoMid,
            pod("p", HIGH),
            List.of(),
            2),
        simple(
            "a node whose other filter fails even with every lower-priority pod gone is no candidate",
            List.of(TRUE_FILTER),
            Code.UNSCHEDULABLE,
            nodes("node1", "node2"),
            twoMid,
            pod("p", HIGH),
            List.of(),
            2),
        simple(
            "a pod that would fit one node without preemption still gets no candidate when the filters fail there",
            List.of(MATCH_FILTER),
            Code.UNSCHEDULABLE,
            nodes("node1", "node2"),
            twoMid,
            pod("node1", HIGH),
            List.of(),
            2),
        simple(
            "both nodes become candidates, each evicting its one lower-priority pod",
            FIT,
            Code.SUCCESS,
            nodes("node1", "node2"),
            twoMidLarge,
            pod("p", HIGH).req(LARGE),
            List.of(Want.of("node1", "p1"), Want.of("node2", "p2")),
            4),
        simple(
            "pods of higher priority are never victims, so no node is examined with the filters",
            FIT,
            Code.SUCCESS,
            nodes("node1", "node2"),
            twoMidLarge,
            pod("p", LOW).req(LARGE),
            List.of(),
            0),
        simple(
            "the medium-priority pod goes; the small low-priority pod is reprieved as the pod fits beside it",
            FIT,
            Code.SUCCESS,
            nodes("node1", "node2"),
            List.of(
                pod("p1.1", LOW).node("node1").req(SMALL).obj(),
                pod("p1.2", MID).node("node1").req(LARGE).obj(),
                pod("p2", MID).node("node2").req(LARGE).obj()),
            pod("p", HIGH).req(LARGE),
            List.of(Want.of("node1", "p1.2"), Want.of("node2", "p2")),
            5),
        simple(
            "of mixed priorities the more important are reprieved first; the rest are victims",
            FIT,
            Code.SUCCESS,
            nodes("node1", "node2"),
            List.of(
                pod("p1.1", MID).node("node1").req(SMALL).obj(),
                pod("p1.2", LOW).node("node1").req(SMALL).obj(),
                pod("p1.3", MID).node("node1").req(MEDIUM).obj(),
                pod("p1.4", HIGH).node("node1").req(SMALL).obj(),
                pod("p2", HIGH).node("node2").req(LARGE).obj()),
            pod("p", HIGH).req(LARGE),
            List.of(Want.of("node1", "p1.2", "p1.3")),
            4),
        simple(
            "at equal priority the pod that started earlier is reprieved, the later one is a victim",
            FIT,
            Code.SUCCESS,
            nodes("node1", "node2"),
            List.of(
                pod("p1.1", LOW).node("node1").req(SMALL).startTime(epoch(5)).obj(),
                pod("p1.2", LOW).node("node1").req(SMALL).startTime(epoch(4)).obj(),
                pod("p1.3", MID).node("node1").req(MEDIUM).startTime(epoch(3)).obj(),
                pod("p1.4", HIGH).node("node1").req(SMALL).startTime(epoch(2)).obj(),
                pod("p2", HIGH).node("node2").req(LARGE).startTime(epoch(1)).obj()),
            pod("p", HIGH).req(LARGE),
            List.of(Want.of("node1", "p1.1", "p1.3")),
            4),
        simple(
            "a lower-priority pod whose anti-affinity rejects the preemptor is the victim; the others stay",
            List.of(Names.NODE_RESOURCES_FIT, Names.INTER_POD_AFFINITY),
            Code.SUCCESS,
            nodes("node1", "node2"),
            List.of(
                pod("p1.1", LOW)
                    .node("node1")
                    .label("foo", "")
                    .req(SMALL)
                    .podAntiAffinityExists("hostname", "foo")
                    .obj(),
                pod("p1.2", MID).node("node1").req(SMALL).obj(),
                pod("p1.3", HIGH).node("node1").req(SMALL).obj(),
                pod("p2", HIGH).node("node2").req(SMALL).obj()),
            pod("p", HIGH).label("foo", "").req(SMALL),
            List.of(Want.of("node1", "p1.1")),
            3),
        simple(
            "spread over zone and hostname is restored only by evicting the low-priority pod of node-a (the "
                + "mid-priority one can stay) or the one of node-b; node-x holds only higher-priority pods",
            List.of(Names.POD_TOPOLOGY_SPREAD),
            Code.SUCCESS,
            List.of(zoned("node-a", "zone1"), zoned("node-b", "zone1"), zoned("node-x", "zone2")),
            List.of(
                pod("pod-a1", MID).node("node-a").label("foo", "").obj(),
                pod("pod-a2", LOW).node("node-a").label("foo", "").obj(),
                pod("pod-b1", LOW).node("node-b").label("foo", "").obj(),
                pod("pod-x1", HIGH).node("node-x").label("foo", "").obj(),
                pod("pod-x2", HIGH).node("node-x").label("foo", "").obj()),
            pod("p", HIGH)
                .label("foo", "")
                .spreadConstraint(1, "zone", "DoNotSchedule", PodWrapper.existsSelector("foo"))
                .spreadConstraint(1, "hostname", "DoNotSchedule", PodWrapper.existsSelector("foo")),
            List.of(Want.of("node-a", "pod-a2"), Want.of("node-b", "pod-b1")),
            5),
        simple(
            "a node a filter rejects even after the removals is no candidate",
            FIT,
            Code.UNSCHEDULABLE,
            nodes("node1", "node2"),
            twoMidLarge,
            pod("p", HIGH).req(LARGE),
            List.of(),
            2),
        withPdbs(
            "two victims under one budget allowing one disruption: the second one violates it",
            List.of(fooPod("p1.1", "node1", MID), fooPod("p1.2", "node1", MID)),
            List.of(pdb("pdb", foo, 1)),
            List.of(Want.of("node1", "p1.1", "p1.2").violating(1)),
            3),
        withPdbs(
            "a budget's already-disrupted pod that is not a victim changes nothing: one violation",
            List.of(fooPod("p1.1", "node1", MID), fooPod("p1.2", "node1", MID)),
            List.of(pdb("pdb", foo, 1, "p2")),
            List.of(Want.of("node1", "p1.1", "p1.2").violating(1)),
            3),
        withPdbs(
            "a victim the budget lists as already disrupted does not use up the budget: no violation",
            List.of(fooPod("p1.1", "node1", MID), fooPod("p1.2", "node1", MID)),
            List.of(pdb("pdb", foo, 1, "p1.2")),
            List.of(Want.of("node1", "p1.1", "p1.2")),
            3),
        withPdbs(
            "of three victims the already-disrupted one is non-violating; the budget's one disruption covers "
                + "another, the third violates it",
            List.of(
                fooPod("p1.1", "node1", MID),
                fooPod("p1.2", "node1", MID),
                fooPod("p1.3", "node1", MID)),
            List.of(pdb("pdb", foo, 1, "p1.3")),
            List.of(Want.of("node1", "p1.1", "p1.2", "p1.3").violating(1)),
            4),
        new Case(
            "with 40% of 5 nodes wanted, the dry run from offset 4 stops after node5 and node1",
            FIT,
            Code.SUCCESS,
            "{\"minCandidateNodesPercentage\":40,\"minCandidateNodesAbsolute\":1}",
            five,
            fiveMid,
            List.of(),
            List.of(pod("p", HIGH).req(LARGE)),
            new int[] {4},
            List.of(List.of(Want.of("node1", "p1"), Want.of("node5", "p5"))),
            new int[] {4}),
        new Case(
            "nodes without lower-priority pods are passed over until two candidates are found",
            FIT,
            Code.SUCCESS,
            "{\"minCandidateNodesPercentage\":40,\"minCandidateNodesAbsolute\":1}",
            five,
            List.of(
                pod("p1", MID).node("node1").req(LARGE).obj(),
                pod("p2", VERY_HIGH).node("node2").req(LARGE).obj(),
                pod("p3", MID).node("node3").req(LARGE).obj(),
                pod("p4", MID).node("node4").req(LARGE).obj(),
                pod("p5", VERY_HIGH).node("node5").req(LARGE).obj()),
            List.of(),
            List.of(pod("p", HIGH).req(LARGE)),
            new int[] {4},
            List.of(List.of(Want.of("node1", "p1"), Want.of("node3", "p3"))),
            new int[] {4}),
        new Case(
            "each cycle starts at its own offset and wraps around the node list",
            FIT,
            Code.SUCCESS,
            "{\"minCandidateNodesPercentage\":40,\"minCandidateNodesAbsolute\":1}",
            five,
            fiveMid,
            List.of(),
            List.of(
                pod("tp1", HIGH).req(LARGE),
                pod("tp2", HIGH).req(LARGE),
                pod("tp3", HIGH).req(LARGE)),
            new int[] {4, 1, 3},
            List.of(
                List.of(Want.of("node1", "p1"), Want.of("node5", "p5")),
                List.of(Want.of("node2", "p2"), Want.of("node3", "p3")),
                List.of(Want.of("node4", "p4"), Want.of("node5", "p5"))),
            new int[] {4, 4, 4}),
        new Case(
            "the dry run looks past the wanted number until a candidate without PDB violations exists; a "
                + "violating candidate beyond the wanted number (node2) is dropped",
            FIT,
            Code.SUCCESS,
            "{\"minCandidateNodesPercentage\":40,\"minCandidateNodesAbsolute\":2}",
            five,
            List.of(
                pod("p1", MID).node("node1").label("app", "foo").req(LARGE).obj(),
                pod("p2", MID).node("node2").label("app", "foo").req(LARGE).obj(),
                pod("p3", MID).node("node3").req(LARGE).obj(),
                pod("p4", MID).node("node4").req(LARGE).obj(),
                pod("p5", MID).node("node5").label("app", "foo").req(LARGE).obj()),
            List.of(pdb("pdb", foo, 0)),
            List.of(pod("p", HIGH).req(LARGE)),
            new int[] {4},
            List.of(
                List.of(
                    Want.of("node1", "p1").violating(1),
                    Want.of("node3", "p3"),
                    Want.of("node5", "p5").violating(1))),
            new int[] {8}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void dryRun(Case c) {
    Fixtures.FakeFilter fake = new Fixtures.FakeFilter(c.fakeCode());
    List<String> plugins = new ArrayList<>(List.of(FAKE_FILTER));
    plugins.addAll(c.plugins());
    plugins.add(DefaultPreemption.NAME);
    int[] cycle = {0};
    Framework fw =
        Fixtures.framework(
            new ObjectStore(),
            PodNominator.NONE,
            n -> c.offsets()[cycle[0]],
            c.args(),
            plugins,
            fake);
    DefaultPreemption plugin = (DefaultPreemption) fw.plugins().get(DefaultPreemption.NAME);
    List<NodeInfo> nodes = Fixtures.nodeInfos(c.nodes(), c.pods());
    nodes.sort(Comparator.comparing(NodeInfo::name));
    Snapshot snapshot = Snapshot.of(nodes);
    for (; cycle[0] < c.preemptors().size(); cycle[0]++) {
      PodInfo pod = c.preemptors().get(cycle[0]).info();
      CycleState state = fw.newCycleState(snapshot);
      assertThat(fw.runPreFilterPlugins(state, pod).status().isSuccess()).isTrue();
      int before = fake.calls.get();
      Evaluator.DryRunResult got =
          plugin
              .evaluator()
              .dryRunPreemption(
                  state,
                  pod,
                  nodes,
                  DisruptionBudgets.of(c.pdbs()),
                  c.offsets()[cycle[0]],
                  plugin.calculateNumCandidates(nodes.size()));
      List<Want> candidates =
          got.candidates().stream()
              .map(
                  k ->
                      new Want(
                          k.name(),
                          k.victims().stream().map(PodInfo::name).sorted().toList(),
                          k.numPdbViolations()))
              .sorted(Comparator.comparing(Want::node))
              .toList();
      assertThat(candidates).as("cycle %d", cycle[0]).isEqualTo(c.want().get(cycle[0]));
      assertThat(fake.calls.get() - before)
          .as("filter calls in cycle %d", cycle[0])
          .isEqualTo(c.wantFilterCalls()[cycle[0]]);
    }
  }
}
