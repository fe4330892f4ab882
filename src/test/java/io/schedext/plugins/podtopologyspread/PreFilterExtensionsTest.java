package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.BAR;
import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.node;
import static io.schedext.plugins.podtopologyspread.Fixtures.on;
import static io.schedext.plugins.podtopologyspread.Fixtures.pod;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static io.schedext.plugins.podtopologyspread.Fixtures.tainted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of upstream's TestPreFilterStateAddPod and TestPreFilterStateRemovePod, plus the check that
 * the incremental update leaves Filter deciding exactly as a PreFilter recomputed from a snapshot
 * that really holds (or lacks) the pod.
 */
class PreFilterExtensionsTest {

  /**
   * @param existing the pods of the snapshot PreFilter sees (for a removal it holds {@code changed}
   *     when {@code real})
   * @param changed the pod added or removed, with its nodeName set
   * @param real false when the removed pod is not actually in the snapshot
   */
  record Case(
      String name,
      Pod preemptor,
      List<Node> nodes,
      List<Pod> existing,
      Pod changed,
      boolean add,
      boolean real,
      List<Map<String, Integer>> wantCounts,
      List<String> wantPaths) {
    @Override
    public String toString() {
      return (add ? "AddPod: " : "RemovePod: ") + name;
    }

    Case want(Map<String, Integer> counts, String paths) {
      List<Map<String, Integer>> c = new ArrayList<>(wantCounts);
      c.add(counts);
      List<String> p = new ArrayList<>(wantPaths);
      p.add(paths);
      return new Case(name, preemptor, nodes, existing, changed, add, real, c, p);
    }

    List<Pod> after() {
      List<Pod> out = new ArrayList<>(existing);
      if (add) {
        out.add(changed);
      } else {
        out.removeIf(p -> p.getMetadata().getName().equals(changed.getMetadata().getName()));
      }
      return out;
    }
  }

  static Case adding(String name, Pod preemptor, List<Node> nodes, Pod added, Pod... existing) {
    return new Case(
        name, preemptor, nodes, List.of(existing), added, true, true, List.of(), List.of());
  }

  /** A removal of {@code existing[index]}. */
  static Case removing(String name, Pod preemptor, List<Node> nodes, int index, Pod... existing) {
    return new Case(
        name,
        preemptor,
        nodes,
        List.of(existing),
        existing[index],
        false,
        true,
        List.of(),
        List.of());
  }

  static Case removingAbsent(
      String name, Pod preemptor, List<Node> nodes, Pod removed, Pod... existing) {
    return new Case(
        name, preemptor, nodes, List.of(existing), removed, false, false, List.of(), List.of());
  }

  static List<Node> ab() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a").obj(),
        node("node-b", "zone", "zone1", "node", "node-b").obj());
  }

  static List<Node> ax() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a").obj(),
        node("node-x", "zone", "zone2", "node", "node-x").obj());
  }

  static List<Node> abx() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a").obj(),
        node("node-b", "zone", "zone1", "node", "node-b").obj(),
        node("node-x", "zone", "zone2", "node", "node-x").obj());
  }

  /** node-a (zone1) carries foo=bar, node-b (zone2) foo="". */
  static List<Node> affinityNodes() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a", "foo", "bar").obj(),
        node("node-b", "zone", "zone2", "node", "node-b", "foo", "").obj());
  }

  static List<Node> taintedA() {
    return List.of(
        tainted(node("node-a", "zone", "zone1", "node", "node-a")).obj(),
        node("node-b", "zone", "zone2", "node", "node-b").obj());
  }

  static Stream<Case> cases() {
    Pod nodeFoo = pod("p", "foo", "").spreadConstraint(spread(1, "node", DNS, FOO)).obj();
    Pod zoneFoo = pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, FOO)).obj();
    Pod zoneNodeFoo =
        pod("p", "foo", "")
            .spreadConstraint(spread(1, "zone", DNS, FOO))
            .spreadConstraint(spread(1, "node", DNS, FOO))
            .obj();
    Pod zoneFooNodeBar =
        pod("p", "foo", "", "bar", "")
            .spreadConstraint(spread(1, "zone", DNS, FOO))
            .spreadConstraint(spread(1, "node", DNS, BAR))
            .obj();
    Pod zoneFooNotInBar =
        pod("p", "foo", "")
            .nodeAffinityTerm("foo", "NotIn", "bar")
            .spreadConstraint(spread(1, "zone", DNS, FOO))
            .obj();
    return Stream.of(
        adding(
                "a pod on one of two empty nodes moves the minimum to the other",
                nodeFoo,
                ab(),
                on("node-a", "p-a1", "foo", ""))
            .want(Map.of("node-a", 1, "node-b", 0), "[node-b 0, node-a 1]"),
        adding(
                "a pod on the least loaded node evens the nodes",
                nodeFoo,
                ab(),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""))
            .want(Map.of("node-a", 1, "node-b", 1), "[node-a 1, node-b 1]"),
        adding(
                "a pod of another namespace changes nothing",
                nodeFoo,
                ab(),
                pod("p-a1", "foo", "").namespace("ns1").node("node-a").obj(),
                on("node-b", "p-b1", "foo", ""))
            .want(Map.of("node-a", 0, "node-b", 1), "[node-a 0, node-b 1]"),
        adding(
                "a pod on the busier node leaves the minimum",
                nodeFoo,
                ab(),
                on("node-b", "p-b2", "foo", ""),
                on("node-b", "p-b1", "foo", ""))
            .want(Map.of("node-a", 0, "node-b", 2), "[node-a 0, node-b 2]"),
        adding(
                "a pod on an empty cluster moves both zone and node minimums",
                zoneNodeFoo,
                ax(),
                on("node-a", "p-a1", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 0), "[zone2 0, zone1 1]")
            .want(Map.of("node-a", 1, "node-x", 0), "[node-x 0, node-a 1]"),
        adding(
                "a pod evens both zones and nodes",
                zoneNodeFoo,
                ax(),
                on("node-a", "p-a1", "foo", ""),
                on("node-x", "p-x1", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 1), "[zone1 1, zone2 1]")
            .want(Map.of("node-a", 1, "node-x", 1), "[node-a 1, node-x 1]"),
        adding(
                "a pod changes the node minimum while another zone keeps the zone minimum",
                zoneNodeFoo,
                abx(),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-b", "p-b2", "foo", ""),
                on("node-x", "p-x1", "foo", ""))
            .want(Map.of("zone1", 3, "zone2", 1), "[zone2 1, zone1 3]")
            .want(Map.of("node-a", 1, "node-b", 2, "node-x", 1), "[node-a 1, node-x 1]"),
        adding(
                "a pod matching only the zone selector changes only the zone counts",
                zoneFooNodeBar,
                abx(),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", "", "bar", ""),
                on("node-x", "p-x1", "foo", "", "bar", ""),
                on("node-x", "p-x2", "bar", ""))
            .want(Map.of("zone1", 2, "zone2", 1), "[zone2 1, zone1 2]")
            .want(Map.of("node-a", 0, "node-b", 1, "node-x", 2), "[node-a 0, node-b 1]"),
        adding(
                "a pod matching both selectors changes both counts",
                zoneFooNodeBar,
                abx(),
                on("node-a", "p-a1", "foo", "", "bar", ""),
                on("node-b", "p-b1", "bar", ""),
                on("node-x", "p-x1", "foo", "", "bar", ""),
                on("node-x", "p-x2", "bar", ""))
            .want(Map.of("zone1", 1, "zone2", 1), "[zone1 1, zone2 1]")
            .want(Map.of("node-a", 1, "node-b", 1, "node-x", 2), "[node-a 1, node-b 1]"),
        adding(
                "a pod on a node outside the preemptor's node affinity changes nothing",
                zoneFooNotInBar,
                affinityNodes(),
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", ""))
            .want(Map.of("zone2", 1), "[zone2 1,  MAX]"),
        adding(
                "a pod on a node inside the preemptor's node affinity is counted",
                zoneFoo,
                affinityNodes(),
                on("node-b", "p-b1", "foo", ""),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b2", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 2), "[zone1 1, zone2 2]"),
        adding(
                "a pod the selector does not match changes nothing",
                zoneFoo,
                affinityNodes(),
                on("node-b", "p-b1", "zone", "zone2"),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b2", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 1), "[zone1 1, zone2 1]"),
        adding(
                "taints are ignored by default",
                zoneFoo,
                taintedA(),
                on("node-b", "p-b1", "foo", ""),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b2", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 2), "[zone1 1, zone2 2]"),
        adding(
                "a pod on an untolerated tainted node changes nothing under taints policy Honor",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, HONOR, null))
                    .obj(),
                taintedA(),
                on("node-a", "p-a2", "foo", ""),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b2", "foo", ""))
            .want(Map.of("zone2", 1), "[zone2 1,  MAX]"),
        adding(
                "a pod on the only domain below minDomains still counts",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "node", DNS, FOO, 3, null, null, null))
                    .obj(),
                ab(),
                on("node-a", "p-a2", "foo", ""),
                on("node-a", "p-a1", "foo", ""))
            .want(Map.of("node-a", 2, "node-b", 0), "[node-b 0, node-a 2]"),
        removing(
                "a pod leaving one node of a busier zone keeps the minimum",
                zoneFoo,
                abx(),
                0,
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 1), "[zone1 1, zone2 1]"),
        removing(
                "a pod leaving makes its zone the minimum",
                zoneFoo,
                PreFilterStateTest.abxy(),
                0,
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 2), "[zone1 1, zone2 2]"),
        removing(
                "removing a pod the selector does not match changes nothing",
                zoneFoo,
                PreFilterStateTest.abxy(),
                0,
                on("node-a", "p-a0", "bar", ""),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", ""))
            .want(Map.of("zone1", 2, "zone2", 2), "[zone1 2, zone2 2]"),
        removingAbsent(
                "removing a pod that is not there and does not match changes nothing",
                zoneFoo,
                PreFilterStateTest.abxy(),
                on("node-a", "p-a0", "bar", ""),
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", ""))
            .want(Map.of("zone1", 2, "zone2", 2), "[zone1 2, zone2 2]"),
        removing(
                "a pod leaving updates both zone and node",
                zoneNodeFoo,
                abx(),
                3,
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-x", "p-x2", "foo", ""))
            .want(Map.of("zone1", 3, "zone2", 1), "[zone2 1, zone1 3]")
            .want(Map.of("node-a", 2, "node-b", 1, "node-x", 1), "[node-b 1, node-x 1]"),
        removing(
                "a pod leaving a node outside the preemptor's node affinity changes nothing",
                zoneFooNotInBar,
                affinityNodes(),
                0,
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", ""))
            .want(Map.of("zone2", 1), "[zone2 1,  MAX]"),
        removing(
                "a pod leaving a node inside the preemptor's node affinity is uncounted",
                zoneFoo,
                affinityNodes(),
                1,
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""))
            .want(Map.of("zone1", 1, "zone2", 0), "[zone2 0, zone1 1]"));
  }

  private static PreFilterState preFilter(
      PodTopologySpread plugin, CycleState state, Pod preemptor) {
    assertThat(plugin.preFilter(state, PodInfo.of(preemptor))).isEqualTo(PreFilterResult.success());
    return state.read(PodTopologySpread.PRE_FILTER_STATE_KEY, PreFilterState.class);
  }

  private static List<Object> snapshotOf(PreFilterState s) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < s.constraints().size(); i++) {
      out.add(s.domainCounts(i));
      out.add(s.minMatchNum(i));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void updatesOnlyTheCopiedState(Case c) {
    PodTopologySpread plugin = Fixtures.listPlugin(new ObjectStore(), List.of());
    List<NodeInfo> before = Fixtures.snapshot(c.nodes(), c.existing());
    CycleState state = Fixtures.state(before);
    PreFilterState original = preFilter(plugin, state, c.preemptor());
    List<Object> originalView = snapshotOf(original);

    CycleState copy = state.copy();
    PodInfo changed = PodInfo.of(c.changed());
    NodeInfo node = Fixtures.find(before, c.changed().getSpec().getNodeName());
    Status s =
        c.add()
            ? plugin.addPod(copy, PodInfo.of(c.preemptor()), changed, node)
            : plugin.removePod(copy, PodInfo.of(c.preemptor()), changed, node);

    assertThat(s).isEqualTo(Status.success());
    PreFilterState updated =
        copy.read(PodTopologySpread.PRE_FILTER_STATE_KEY, PreFilterState.class);
    List<Map<String, Integer>> counts = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < updated.constraints().size(); i++) {
      counts.add(updated.domainCounts(i));
      paths.add(PreFilterStateTest.render(updated.criticalPaths(i)));
    }
    assertThat(counts).isEqualTo(c.wantCounts());
    assertThat(paths).isEqualTo(c.wantPaths());
    assertThat(snapshotOf(original)).as("the original state is untouched").isEqualTo(originalView);
  }

  /**
   * The cases whose snapshot really holds the removed pod, so that recomputing from it is
   * meaningful.
   */
  static Stream<Case> realCases() {
    return cases().filter(Case::real);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("realCases")
  void filterAfterTheUpdateMatchesARecomputedPreFilter(Case c) {
    PodTopologySpread plugin = Fixtures.listPlugin(new ObjectStore(), List.of());
    PodInfo preemptor = PodInfo.of(c.preemptor());
    List<NodeInfo> after = Fixtures.snapshot(c.nodes(), c.after());
    List<NodeInfo> before = Fixtures.snapshot(c.nodes(), c.existing());

    CycleState incremental = Fixtures.state(before);
    preFilter(plugin, incremental, c.preemptor());
    incremental = incremental.copy();
    NodeInfo node = Fixtures.find(after, c.changed().getSpec().getNodeName());
    if (c.add()) {
      plugin.addPod(incremental, preemptor, PodInfo.of(c.changed()), node);
    } else {
      plugin.removePod(incremental, preemptor, PodInfo.of(c.changed()), node);
    }
    CycleState recomputed = Fixtures.state(after);
    PreFilterState fresh = preFilter(plugin, recomputed, c.preemptor());

    Map<String, Status> gotIncremental = new LinkedHashMap<>();
    Map<String, Status> gotRecomputed = new LinkedHashMap<>();
    for (NodeInfo n : after) {
      gotIncremental.put(n.name(), plugin.filter(incremental, preemptor, n));
      gotRecomputed.put(n.name(), plugin.filter(recomputed, preemptor, n));
    }
    assertThat(gotIncremental).isEqualTo(gotRecomputed);
    assertThat(
            snapshotOf(
                incremental.read(PodTopologySpread.PRE_FILTER_STATE_KEY, PreFilterState.class)))
        .isEqualTo(snapshotOf(fresh));
  }
}
