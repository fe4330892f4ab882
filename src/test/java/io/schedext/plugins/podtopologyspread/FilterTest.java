package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.BAR;
import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.IGNORE;
import static io.schedext.plugins.podtopologyspread.Fixtures.NO_KEY;
import static io.schedext.plugins.podtopologyspread.Fixtures.OK;
import static io.schedext.plugins.podtopologyspread.Fixtures.SKEWED;
import static io.schedext.plugins.podtopologyspread.Fixtures.node;
import static io.schedext.plugins.podtopologyspread.Fixtures.on;
import static io.schedext.plugins.podtopologyspread.Fixtures.pod;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static io.schedext.plugins.podtopologyspread.Fixtures.tainted;
import static io.schedext.plugins.podtopologyspread.PreFilterStateTest.abxy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of upstream's TestSingleConstraint and TestMultipleConstraints: Filter's status for every
 * node.
 */
class FilterTest {

  record Case(String name, Pod pod, List<Node> nodes, List<Pod> pods, Map<String, Status> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case when(String name, Pod pod, List<Node> nodes, List<Pod> pods, Object... want) {
    Map<String, Status> w = new LinkedHashMap<>();
    for (int i = 0; i < want.length; i += 2) {
      w.put((String) want[i], (Status) want[i + 1]);
    }
    return new Case(name, pod, nodes, pods, w);
  }

  /** Nodes a, b, c labelled with their own name under "node" only. */
  static List<Node> abc() {
    return List.of(
        node("node-a", "node", "node-a").obj(),
        node("node-b", "node", "node-b").obj(),
        node("node-c", "node", "node-c").obj());
  }

  /** Nodes a, b, x carry foo; y does not. */
  static List<Node> abxFoo() {
    return List.of(
        node("node-a", "node", "node-a", "foo", "").obj(),
        node("node-b", "node", "node-b", "foo", "").obj(),
        node("node-x", "node", "node-x", "foo", "").obj(),
        node("node-y", "node", "node-y").obj());
  }

  /** Spread over nodes as 2/1/0/3. */
  static List<Pod> spread2103() {
    return List.of(
        on("node-a", "p-a1", "foo", ""),
        on("node-a", "p-a2", "foo", ""),
        on("node-b", "p-b1", "foo", ""),
        on("node-y", "p-y1", "foo", ""),
        on("node-y", "p-y2", "foo", ""),
        on("node-y", "p-y3", "foo", ""));
  }

  static List<Pod> spread221() {
    return List.of(
        on("node-a", "p-a1", "foo", ""),
        on("node-a", "p-a2", "foo", ""),
        on("node-b", "p-b1", "foo", ""),
        on("node-b", "p-b2", "foo", ""),
        on("node-c", "p-c1", "foo", ""));
  }

  static List<Pod> abyOneEach() {
    return List.of(
        on("node-a", "p-b1", "foo", ""),
        on("node-b", "p-b2", "foo", ""),
        on("node-y", "p-y1", "foo", ""));
  }

  static Stream<Case> singleConstraint() {
    Pod zoneFoo = pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, FOO)).obj();
    Pod nodeFoo = pod("p", "foo", "").spreadConstraint(spread(1, "node", DNS, FOO)).obj();
    return Stream.of(
        when(
            "every node fits when no pod runs",
            zoneFoo,
            abxy(),
            List.of(),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "every node fits when no pod runs and the pod does not match itself",
            pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, BAR)).obj(),
            abxy(),
            List.of(),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "pods of other namespaces do not make zone1 busier",
            zoneFoo,
            abxy(),
            List.of(
                pod("p-a1", "foo", "").namespace("ns1").node("node-a").obj(),
                pod("p-b1", "foo", "").namespace("ns2").node("node-a").obj(),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", "")),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "a null selector matches no existing pod",
            pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, null)).obj(),
            abxy(),
            List.of(on("node-x", "p-x1", "foo", ""), on("node-y", "p-y1", "foo", "")),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "zones spread 3/3 let every node fit",
            zoneFoo,
            abxy(),
            List.of(
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-y", "p-y1", "foo", ""),
                on("node-y", "p-y2", "foo", ""),
                on("node-y", "p-y3", "foo", "")),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "a node with a misspelt zone label is unresolvable and its pods do not count",
            zoneFoo,
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a").obj(),
                node("node-b", "zon", "zone1", "node", "node-b").obj(),
                node("node-x", "zone", "zone2", "node", "node-x").obj(),
                node("node-y", "zone", "zone2", "node", "node-y").obj()),
            List.of(
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", "")),
            "node-a",
            OK,
            "node-b",
            NO_KEY,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "no node has the rack key, so every node is unresolvable",
            pod("p", "foo", "").spreadConstraint(spread(1, "rack", DNS, FOO)).obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a").obj(),
                node("node-x", "zone", "zone2", "node", "node-x").obj()),
            List.of(),
            "node-a",
            NO_KEY,
            "node-x",
            NO_KEY),
        when(
            "nodes spread 2/1/0/3 leave only the empty node",
            nodeFoo,
            abxy(),
            spread2103(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "nodes spread 2/1/0/3 with maxSkew 2 leave the two least loaded nodes",
            pod("p", "foo", "").spreadConstraint(spread(2, "node", DNS, FOO)).obj(),
            abxy(),
            spread2103(),
            "node-a",
            SKEWED,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "a pod that does not match itself adds nothing to the skew",
            pod("p", "bar", "").spreadConstraint(spread(1, "node", DNS, FOO)).obj(),
            abxy(),
            spread2103(),
            "node-a",
            SKEWED,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "nodes outside the pod's node affinity do not lower the minimum",
            pod("p", "foo", "")
                .nodeAffinityTerm("node", "In", "node-a", "node-y")
                .spreadConstraint(spread(1, "node", DNS, FOO))
                .obj(),
            abxy(),
            spread2103(),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "terminating pods are not counted",
            nodeFoo,
            List.of(node("node-a", "node", "node-a").obj(), node("node-b", "node", "node-b").obj()),
            List.of(
                pod("p-a", "foo", "").node("node-a").terminating().obj(),
                on("node-b", "p-b", "foo", "")),
            "node-a",
            OK,
            "node-b",
            SKEWED),
        when(
            "pods on a node outside the pod's node affinity do not count for its zone",
            pod("p", "foo", "")
                .nodeAffinityTerm("node", "NotIn", "node-b")
                .spreadConstraint(spread(1, "zone", DNS, FOO))
                .obj(),
            abxy(),
            List.of(
                on("node-b", "p-b1", "foo", ""),
                on("node-b", "p-b2", "foo", ""),
                on("node-y", "p-y1", "foo", "")),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "fewer domains than minDomains take the global minimum as 0",
            pod("p", "foo", "")
                .spreadConstraint(spread(2, "node", DNS, FOO, 4, null, null, null))
                .obj(),
            abc(),
            spread221(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-c",
            OK),
        when(
            "more domains than minDomains keep the real global minimum",
            pod("p", "foo", "")
                .spreadConstraint(spread(2, "node", DNS, FOO, 2, null, null, null))
                .obj(),
            abc(),
            spread221(),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-c",
            OK),
        when(
            "two zones below minDomains 3 take the zone minimum as 0",
            pod("p", "foo", "")
                .spreadConstraint(spread(2, "zone", DNS, FOO, 3, null, null, null))
                .obj(),
            abxy(),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "two zones above minDomains 1 keep the zone minimum",
            pod("p", "foo", "")
                .spreadConstraint(spread(2, "zone", DNS, FOO, 1, null, null, null))
                .obj(),
            abxy(),
            abyOneEach(),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "affinity policy Honor leaves the node outside the node selector out of the minimum",
            pod("p", "foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(spread(1, "node", DNS, FOO))
                .obj(),
            abxFoo(),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "affinity policy Ignore counts the node outside the node selector",
            pod("p", "foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(spread(1, "node", DNS, FOO, null, IGNORE, null, null))
                .obj(),
            abxFoo(),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "affinity policy Honor leaves the node outside the required affinity out of the minimum",
            pod("p", "foo", "")
                .nodeAffinityTerm("foo", "In", "")
                .spreadConstraint(spread(1, "node", DNS, FOO))
                .obj(),
            abxFoo(),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "affinity policy Ignore counts the node outside the required affinity",
            pod("p", "foo", "")
                .nodeAffinityTerm("foo", "In", "")
                .spreadConstraint(spread(1, "node", DNS, FOO, null, IGNORE, null, null))
                .obj(),
            abxFoo(),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "taints policy Honor leaves the tainted node out of the minimum",
            pod("p", "foo", "")
                .spreadConstraint(spread(1, "node", DNS, FOO, null, null, HONOR, null))
                .obj(),
            List.of(
                node("node-a", "node", "node-a", "foo", "").obj(),
                node("node-b", "node", "node-b", "foo", "").obj(),
                node("node-x", "node", "node-x", "foo", "").obj(),
                tainted(node("node-y", "node", "node-y")).obj()),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "taints policy Ignore counts the tainted node",
            pod("p", "foo", "").spreadConstraint(spread(1, "node", DNS, FOO)).obj(),
            List.of(
                node("node-a", "node", "node-a", "foo", "").obj(),
                node("node-b", "node", "node-b", "foo", "").obj(),
                node("node-x", "node", "node-x", "foo", "").obj(),
                tainted(node("node-y", "node", "node-y")).obj()),
            abyOneEach(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED));
  }

  static Stream<Case> multipleConstraints() {
    Pod zoneAndNode =
        pod("p", "foo", "")
            .spreadConstraint(spread(1, "zone", DNS, FOO))
            .spreadConstraint(spread(1, "node", DNS, FOO))
            .obj();
    Pod zoneFooNodeBar =
        pod("p", "foo", "", "bar", "")
            .spreadConstraint(spread(1, "zone", DNS, FOO))
            .spreadConstraint(spread(1, "node", DNS, BAR))
            .obj();
    Pod twoZones =
        pod("p", "foo", "", "bar", "")
            .spreadConstraint(spread(1, "zone", DNS, BAR))
            .spreadConstraint(spread(1, "zone", DNS, FOO))
            .obj();
    List<Pod> threeThreeTwoOne =
        List.of(
            on("node-a", "p-a1", "foo", "", "bar", ""),
            on("node-a", "p-a2", "foo", ""),
            on("node-b", "p-b1", "foo", "", "bar", ""),
            on("node-y", "p-y1", "foo", ""),
            on("node-y", "p-y2", "foo", "", "bar", ""),
            on("node-y", "p-y3", "foo", ""));
    List<Pod> abcInclusion =
        List.of(
            on("node-a", "p-a1", "foo", ""),
            on("node-b", "p-b1", "foo", ""),
            on("node-y", "p-y1", "foo", ""));
    return Stream.of(
        when(
            "zones 3/3 and nodes 2/1/0/3 leave only node-x",
            zoneAndNode,
            abxy(),
            spread2103(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "zones 3/4 and nodes 2/1/0/4 leave no node",
            zoneAndNode,
            abxy(),
            Stream.concat(spread2103().stream(), Stream.of(on("node-y", "p-y4", "foo", "")))
                .toList(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "different selectors spreading 1/0 and 1/0/0/1 leave node-x",
            zoneFooNodeBar,
            abxy(),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-y", "p-y1", "bar", "")),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "different selectors spreading 1/0 and 0/0/1/1 leave no node",
            zoneFooNodeBar,
            abxy(),
            List.of(
                on("node-a", "p-a1", "foo", ""),
                on("node-x", "p-x1", "bar", ""),
                on("node-y", "p-y1", "bar", "")),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "different selectors spreading 2/3 and 1/0/0/1 leave node-b",
            zoneFooNodeBar,
            abxy(),
            List.of(
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", "", "bar", ""),
                on("node-y", "p-y1", "foo", ""),
                on("node-y", "p-y2", "foo", "", "bar", ""),
                on("node-y", "p-y3", "foo", "")),
            "node-a",
            SKEWED,
            "node-b",
            OK,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "a pod not matching the zone selector is only held by the node constraint",
            pod("p", "bar", "")
                .spreadConstraint(spread(1, "zone", DNS, FOO))
                .spreadConstraint(spread(1, "node", DNS, BAR))
                .obj(),
            abxy(),
            List.of(
                on("node-a", "p-a1", "foo", ""),
                on("node-x", "p-x1", "bar", ""),
                on("node-y", "p-y1", "bar", "")),
            "node-a",
            OK,
            "node-b",
            OK,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED),
        when(
            "a node without the node key is unresolvable for the second constraint",
            zoneAndNode,
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a").obj(),
                node("node-b", "zone", "zone1", "node", "node-b").obj(),
                node("node-x", "zone", "zone2").obj(),
                node("node-y", "zone", "zone2", "node", "node-y").obj()),
            List.of(on("node-a", "p-a1", "foo", ""), on("node-y", "p-y3", "foo", "")),
            "node-a",
            SKEWED,
            "node-b",
            OK,
            "node-x",
            NO_KEY,
            "node-y",
            SKEWED),
        when(
            "zone honours the node selector while node ignores it",
            pod("p", "foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(spread(1, "zone", DNS, FOO))
                .spreadConstraint(spread(1, "node", DNS, FOO, null, IGNORE, null, null))
                .obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a", "foo", "").obj(),
                node("node-b", "zone", "zone1", "node", "node-b", "foo", "").obj(),
                node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj(),
                node("node-y", "zone", "zone2", "node", "node-y").obj()),
            abcInclusion,
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "zone honours taints while node ignores them",
            pod("p", "foo", "")
                .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, HONOR, null))
                .spreadConstraint(spread(1, "node", DNS, FOO))
                .obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a", "foo", "").obj(),
                node("node-b", "zone", "zone1", "node", "node-b", "foo", "").obj(),
                node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj(),
                tainted(node("node-y", "zone", "zone2", "node", "node-y")).obj()),
            abcInclusion,
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "both constraints honour the node selector and ignore taints",
            pod("p", "foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(spread(1, "zone", DNS, FOO))
                .spreadConstraint(spread(1, "node", DNS, FOO))
                .obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a", "foo", "").obj(),
                node("node-b", "zone", "zone1", "node", "node-b").obj(),
                node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj(),
                tainted(node("node-y", "zone", "zone2", "node", "node-y", "foo", "")).obj()),
            abcInclusion,
            "node-a",
            SKEWED,
            "node-b",
            OK,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "zone honours affinity and taints while node ignores both",
            pod("p", "foo", "")
                .nodeSelector(Map.of("foo", ""))
                .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, HONOR, null))
                .spreadConstraint(spread(1, "node", DNS, FOO, null, IGNORE, null, null))
                .obj(),
            List.of(
                node("node-a", "zone", "zone1", "node", "node-a", "foo", "").obj(),
                node("node-b", "zone", "zone1", "node", "node-b").obj(),
                node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj(),
                tainted(node("node-y", "zone", "zone2", "node", "node-y", "foo", "")).obj()),
            abcInclusion,
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            SKEWED),
        when(
            "two zone constraints spreading 3/3 and 2/1 leave zone2",
            twoZones,
            abxy(),
            threeThreeTwoOne,
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            OK,
            "node-y",
            OK),
        when(
            "two zone constraints spreading 3/4 and 2/1 leave no node",
            twoZones,
            abxy(),
            Stream.concat(threeThreeTwoOne.stream(), Stream.of(on("node-y", "p-y4", "foo", "")))
                .toList(),
            "node-a",
            SKEWED,
            "node-b",
            SKEWED,
            "node-x",
            SKEWED,
            "node-y",
            SKEWED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"singleConstraint", "multipleConstraints"})
  void filter(Case c) {
    PodTopologySpread plugin = Fixtures.listPlugin(new ObjectStore(), List.of());
    List<NodeInfo> infos = Fixtures.snapshot(c.nodes(), c.pods());
    CycleState state = Fixtures.state(infos);
    PodInfo pod = PodInfo.of(c.pod());
    assertThat(plugin.preFilter(state, pod)).isEqualTo(PreFilterResult.success());

    Map<String, Status> got = new LinkedHashMap<>();
    for (NodeInfo n : infos) {
      got.put(n.name(), plugin.filter(state, pod, n));
    }
    assertThat(got).isEqualTo(c.want());
  }

  @Test
  void filterWithoutPreFilterStateIsAnInternalError() {
    PodTopologySpread plugin = Fixtures.listPlugin(new ObjectStore(), List.of());
    List<NodeInfo> infos = Fixtures.snapshot(abxy(), List.of());
    assertThatThrownBy(
            () -> plugin.filter(Fixtures.state(infos), PodInfo.of(pod("p").obj()), infos.get(0)))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("reading \"PreFilterPodTopologySpread\" from cycleState: not found");
  }
}
