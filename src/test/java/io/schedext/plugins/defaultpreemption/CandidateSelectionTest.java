package io.schedext.plugins.defaultpreemption;

import static io.schedext.plugins.defaultpreemption.Fixtures.HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.LARGE;
import static io.schedext.plugins.defaultpreemption.Fixtures.LOW;
import static io.schedext.plugins.defaultpreemption.Fixtures.MEDIUM;
import static io.schedext.plugins.defaultpreemption.Fixtures.MID;
import static io.schedext.plugins.defaultpreemption.Fixtures.NEG;
import static io.schedext.plugins.defaultpreemption.Fixtures.SMALL;
import static io.schedext.plugins.defaultpreemption.Fixtures.VERY_HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.VERY_LARGE;
import static io.schedext.plugins.defaultpreemption.Fixtures.epoch;
import static io.schedext.plugins.defaultpreemption.Fixtures.node;
import static io.schedext.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The node picked among the dry run's candidates (upstream's TestSelectBestCandidate), every pod
 * started at the epoch unless a case says otherwise. Nodes offer 500m cpu and 500 memory.
 */
class CandidateSelectionTest {

  record Case(String name, int nodes, PodWrapper pod, List<Pod> pods, List<String> anyOf) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Pod on(String name, int priority, Map<String, String> req, String start) {
    return pod(name, priority).node("node" + name.charAt(1)).req(req).startTime(start).obj();
  }

  private static Pod on(String name, int priority, Map<String, String> req) {
    return on(name, priority, req, epoch(0));
  }

  static Stream<Case> cases() {
    PodWrapper big = pod("p", HIGH).req(VERY_LARGE);
    return Stream.of(
        new Case(
            "two equal candidates: either node",
            2,
            pod("p", HIGH).req(LARGE),
            List.of(on("p1", MID, LARGE), on("p2", MID, LARGE)),
            List.of("node1", "node2")),
        new Case(
            "the node whose most important victim has the lowest priority wins",
            3,
            big,
            List.of(
                on("p1.1", MID, MEDIUM),
                on("p1.2", MID, LARGE),
                on("p2.1", MID, MEDIUM),
                on("p2.2", LOW, MEDIUM),
                on("p3.1", LOW, MEDIUM),
                on("p3.2", LOW, MEDIUM)),
            List.of("node3")),
        new Case(
            "with equal highest priorities the lowest sum of priorities wins",
            3,
            big,
            List.of(
                on("p1.1", MID, MEDIUM),
                on("p1.2", MID, LARGE),
                on("p2.1", MID, LARGE),
                on("p2.2", LOW, MEDIUM),
                on("p3.1", MID, MEDIUM),
                on("p3.2", MID, MEDIUM)),
            List.of("node2")),
        new Case(
            "with equal highest priority and sum the fewest victims win",
            3,
            big,
            List.of(
                on("p1.1", MID, SMALL),
                on("p1.2", NEG, SMALL),
                on("p1.3", MID, SMALL),
                on("p1.4", NEG, SMALL),
                on("p2.1", MID, LARGE),
                on("p2.2", NEG, MEDIUM),
                on("p3.1", MID, MEDIUM),
                on("p3.2", NEG, SMALL),
                on("p3.3", LOW, SMALL)),
            List.of("node2")),
        new Case(
            "sums use priorities shifted by 2^31, so more negative-priority victims weigh more",
            3,
            big,
            List.of(
                on("p1.1", MID, SMALL),
                on("p1.2", NEG, SMALL),
                on("p1.3", NEG, SMALL),
                on("p2.1", MID, LARGE),
                on("p2.2", NEG, MEDIUM),
                on("p3.1", MID, MEDIUM),
                on("p3.2", NEG, SMALL),
                on("p3.3", LOW, SMALL)),
            List.of("node2")),
        new Case(
            "each rule decides alone: the lowest highest priority wins though its sum and count are larger",
            4,
            pod("p", VERY_HIGH).req(VERY_LARGE),
            List.of(
                on("p1.1", MID, SMALL),
                on("p1.2", LOW, SMALL),
                on("p1.3", LOW, SMALL),
                on("p2.1", HIGH, LARGE),
                on("p3.1", MID, MEDIUM),
                on("p3.2", LOW, SMALL),
                on("p3.3", LOW, SMALL),
                on("p3.4", LOW, MEDIUM),
                on("p4.1", MID, MEDIUM),
                on("p4.2", MID, SMALL),
                on("p4.3", MID, SMALL),
                on("p4.4", NEG, SMALL)),
            List.of("node1")),
        new Case(
            "all else equal, the node whose victims started latest wins",
            3,
            big,
            List.of(
                on("p1.1", MID, MEDIUM, epoch(2)),
                on("p1.2", MID, MEDIUM, epoch(2)),
                on("p2.1", MID, MEDIUM, epoch(3)),
                on("p2.2", MID, MEDIUM, epoch(3)),
                on("p3.1", MID, MEDIUM, epoch(1)),
                on("p3.2", MID, MEDIUM, epoch(1))),
            List.of("node2")),
        new Case(
            "the start time compared is each node's earliest among its victims",
            3,
            big,
            List.of(
                on("p1.1", MID, MEDIUM, epoch(4)),
                on("p1.2", MID, MEDIUM, epoch(2)),
                on("p2.1", MID, MEDIUM, epoch(5)),
                on("p2.2", MID, MEDIUM, epoch(1)),
                on("p3.1", MID, MEDIUM, epoch(3)),
                on("p3.2", MID, MEDIUM, epoch(6))),
            List.of("node3")),
        new Case(
            "the start time compared is that of the highest-priority victims only",
            3,
            big,
            List.of(
                on("p1.1", LOW, MEDIUM, epoch(4)),
                on("p1.2", MID, MEDIUM, epoch(2)),
                on("p2.1", MID, MEDIUM, epoch(6)),
                on("p2.2", LOW, MEDIUM, epoch(1)),
                on("p3.1", LOW, MEDIUM, epoch(3)),
                on("p3.2", MID, MEDIUM, epoch(5))),
            List.of("node2")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void pick(Case c) {
    Framework fw =
        Fixtures.framework(
            new ObjectStore(),
            PodNominator.NONE,
            n -> 0,
            null,
            List.of(Names.NODE_RESOURCES_FIT, DefaultPreemption.NAME),
            null);
    DefaultPreemption plugin = (DefaultPreemption) fw.plugins().get(DefaultPreemption.NAME);
    List<Node> nodes = new ArrayList<>();
    for (int i = 1; i <= c.nodes(); i++) {
      nodes.add(node("node" + i, VERY_LARGE).obj());
    }
    List<NodeInfo> infos = Fixtures.nodeInfos(nodes, c.pods());
    PodInfo pod = c.pod().info();
    CycleState state = fw.newCycleState(Snapshot.of(infos));
    fw.runPreFilterPlugins(state, pod);
    List<Candidate> candidates =
        plugin
            .evaluator()
            .dryRunPreemption(
                state,
                pod,
                infos,
                DisruptionBudgets.NONE,
                0,
                plugin.calculateNumCandidates(infos.size()))
            .candidates();

    assertThat(CandidateSelection.pickOne(candidates, Fixtures.NOW).name()).isIn(c.anyOf());
  }

  record PickCase(String name, List<Candidate> candidates, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Candidate candidate(String node, int violations, PodInfo... victims) {
    return new Candidate(node, List.of(victims), violations);
  }

  static Stream<PickCase> pickCases() {
    PodInfo low = pod("low", LOW).info();
    PodInfo high = pod("high", HIGH).info();
    PodInfo unstarted = pod("unstarted", MID).info();
    PodInfo startedLongAgo = pod("old", MID).startTime(epoch(0)).info();
    return Stream.of(
        new PickCase(
            "fewer PDB violations beat a lower victim priority",
            List.of(candidate("a", 1, low), candidate("b", 0, high)),
            "b"),
        new PickCase(
            "a victim without a start time counts as started now, later than any recorded start",
            List.of(candidate("a", 0, startedLongAgo), candidate("b", 0, unstarted)),
            "b"),
        new PickCase(
            "a full tie goes to the first candidate",
            List.of(candidate("a", 0, low), candidate("b", 0, low)),
            "a"),
        new PickCase(
            "a single candidate is taken as is", List.of(candidate("only", 3, high)), "only"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pickCases")
  void tieBreaks(PickCase c) {
    assertThat(CandidateSelection.pickOne(c.candidates(), Fixtures.NOW).name()).isEqualTo(c.want());
  }
}
