package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.BAR;
import static io.schedext.plugins.podtopologyspread.Fixtures.EMPTY;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.HOSTNAME;
import static io.schedext.plugins.podtopologyspread.Fixtures.IGNORE;
import static io.schedext.plugins.podtopologyspread.Fixtures.SA;
import static io.schedext.plugins.podtopologyspread.Fixtures.node;
import static io.schedext.plugins.podtopologyspread.Fixtures.on;
import static io.schedext.plugins.podtopologyspread.Fixtures.pod;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static io.schedext.plugins.podtopologyspread.Fixtures.tainted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of upstream's TestPodTopologySpreadScore: normalised scores of the feasible nodes, System
 * defaulting.
 */
class ScoreTest {

  /**
   * @param nodes the feasible nodes, in scoring order
   * @param failed the nodes that failed filtering (still in the snapshot)
   */
  record Case(
      String name,
      Pod pod,
      List<Node> nodes,
      List<Node> failed,
      List<Pod> pods,
      Map<String, String> serviceSelector,
      Map<String, Long> want) {
    @Override
    public String toString() {
      return name;
    }

    Case failed(Node... more) {
      return new Case(name, pod, nodes, List.of(more), pods, serviceSelector, want);
    }

    Case service(Map<String, String> selector) {
      return new Case(name, pod, nodes, failed, pods, selector, want);
    }

    Case pods(Pod... existing) {
      return new Case(name, pod, nodes, failed, List.of(existing), serviceSelector, want);
    }

    Case want(Object... nameScore) {
      Map<String, Long> w = new LinkedHashMap<>();
      for (int i = 0; i < nameScore.length; i += 2) {
        w.put((String) nameScore[i], ((Number) nameScore[i + 1]).longValue());
      }
      return new Case(name, pod, nodes, failed, pods, serviceSelector, w);
    }
  }

  static Case when(String name, Pod pod, Node... nodes) {
    return new Case(name, pod, List.of(nodes), List.of(), List.of(), null, Map.of());
  }

  static Node host(String name, String... kv) {
    String[] all = new String[kv.length + 2];
    all[0] = HOSTNAME;
    all[1] = name;
    System.arraycopy(kv, 0, all, 2, kv.length);
    return node(name, all).obj();
  }

  static Pod[] fooPods(String node, int n) {
    Pod[] out = new Pod[n];
    for (int i = 0; i < n; i++) {
      out[i] = on("node-" + node, "p-" + node + (i + 1), "foo", "");
    }
    return out;
  }

  static Pod[] concat(Pod[]... parts) {
    return Stream.of(parts).flatMap(Stream::of).toArray(Pod[]::new);
  }

  static Stream<Case> cases() {
    Pod hostFoo = pod("p", "foo", "").spreadConstraint(spread(1, HOSTNAME, SA, FOO)).obj();
    Pod zoneFooHostBar =
        pod("p", "foo", "", "bar", "")
            .spreadConstraint(spread(1, "zone", SA, FOO))
            .spreadConstraint(spread(1, HOSTNAME, SA, BAR))
            .obj();
    Pod[] a2b1d3 = concat(fooPods("a", 2), fooPods("b", 1), fooPods("d", 3));
    Pod[] a4b3c2d1 = concat(fooPods("a", 4), fooPods("b", 3), fooPods("c", 2), fooPods("d", 1));
    Pod[] a4b2x1y3 = concat(fooPods("a", 4), fooPods("b", 2), fooPods("x", 1), fooPods("y", 3));
    Pod[] a2b1c1 = concat(fooPods("a", 2), fooPods("b", 1), fooPods("c", 1));
    Pod[] fooBarSpread = {
      on("node-a", "p-a1", "foo", ""),
      on("node-b", "p-b1", "foo", "", "bar", ""),
      on("node-c", "p-y1", "foo", ""),
      on("node-c", "p-y2", "bar", "")
    };
    Node[] zonedHosts = {
      host("node-a", "zone", "zone1"),
      host("node-b", "zone", "zone1"),
      host("node-c", "zone", "zone2"),
      host("node-d", "zone", "zone2")
    };
    return Stream.of(
        when("every node scores 100 when no pod runs", hostFoo, host("node-a"), host("node-b"))
            .want("node-a", 100, "node-b", 100),
        when("a single feasible node scores 100", hostFoo, host("node-a"))
            .failed(host("node-b"))
            .pods(concat(fooPods("a", 2), fooPods("b", 1)))
            .want("node-a", 100),
        when("nodes with equal counts score alike", hostFoo, host("node-a"), host("node-b"))
            .pods(concat(fooPods("a", 1), fooPods("b", 1)))
            .want("node-a", 100, "node-b", 100),
        when(
                "nodes spread 2/1/0/3 score by their counts",
                hostFoo,
                host("node-a"),
                host("node-b"),
                host("node-c"),
                host("node-d"))
            .pods(a2b1d3)
            .want("node-a", 20, "node-b", 60, "node-c", 100, "node-d", 0),
        when(
                "a null selector counts nothing, so every node scores 100",
                pod("p", "foo", "").spreadConstraint(spread(1, HOSTNAME, SA, null)).obj(),
                host("node-a"),
                host("node-b"),
                host("node-c"),
                host("node-d"))
            .pods(a2b1d3)
            .want("node-a", 100, "node-b", 100, "node-c", 100, "node-d", 100),
        when(
                "an empty selector counts no pod, as 1.34.9, so every node scores 100",
                pod("p", "foo", "").spreadConstraint(spread(1, HOSTNAME, SA, EMPTY)).obj(),
                host("node-a"),
                host("node-b"),
                host("node-c"),
                host("node-d"))
            .pods(concat(a2b1d3, new Pod[] {on("node-c", "p-c1", "other", "")}))
            .want("node-a", 100, "node-b", 100, "node-c", 100, "node-d", 100),
        when(
                "maxSkew 2 waters the differences down",
                pod("p", "foo", "").spreadConstraint(spread(2, HOSTNAME, SA, FOO)).obj(),
                host("node-a"),
                host("node-b"),
                host("node-c"),
                host("node-d"))
            .pods(a2b1d3)
            .want("node-a", 33, "node-b", 66, "node-c", 100, "node-d", 16),
        when(
                "maxSkew 3 waters the differences down further",
                pod("p", "foo", "").spreadConstraint(spread(3, HOSTNAME, SA, FOO)).obj(),
                host("node-a"),
                host("node-b"),
                host("node-c"),
                host("node-d"))
            .pods(a4b3c2d1)
            .want("node-a", 44, "node-b", 66, "node-c", 77, "node-d", 100),
        when(
                "system default spreading takes the pod's service selector and skips missing zones",
                pod("p", "foo", "").obj(),
                host("node-a"),
                host("node-b"),
                host("node-c"),
                host("node-d"))
            .pods(a4b3c2d1)
            .service(Map.of("foo", ""))
            .want("node-a", 44, "node-b", 66, "node-c", 77, "node-d", 100),
        when(
                "a node that failed filtering is not scored but its pods do not count either for hostname",
                hostFoo,
                host("node-a"),
                host("node-b"),
                host("node-x"))
            .failed(host("node-y"))
            .pods(a4b2x1y3)
            .want("node-a", 33, "node-b", 83, "node-x", 100),
        when(
                "a feasible node without the hostname key is ignored and scores 0",
                hostFoo,
                host("node-a"),
                node("node-b", "n", "node-b").obj(),
                host("node-x"))
            .failed(host("node-y"))
            .pods(a4b2x1y3)
            .want("node-a", 16, "node-b", 0, "node-x", 100),
        when(
                "zone counts include pods on nodes that failed filtering",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", SA, FOO)).obj(),
                host("node-a", "zone", "zone1"),
                host("node-b", "zone", "zone1"),
                host("node-x", "zone", "zone2"))
            .failed(host("node-y", "zone", "zone2"))
            .pods(a4b2x1y3)
            .want("node-a", 75, "node-b", 75, "node-x", 100),
        when(
                "zone and hostname constraints add up over two feasible nodes",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .spreadConstraint(spread(1, HOSTNAME, SA, FOO))
                    .obj(),
                host("node-a", "zone", "zone1"),
                host("node-x", "zone", "zone2"))
            .failed(host("node-b", "zone", "zone1"), host("node-y", "zone", "zone2"))
            .pods(concat(fooPods("a", 2), fooPods("b", 1), fooPods("x", 2), fooPods("y", 4)))
            .want("node-a", 100, "node-x", 63),
        when(
                "two zone constraints with different selectors add up",
                pod("p", "foo", "", "bar", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .spreadConstraint(spread(1, "zone", SA, BAR))
                    .obj(),
                node("node-a", "zone", "zone1").obj(),
                node("node-x", "zone", "zone2").obj())
            .failed(node("node-b", "zone", "zone1").obj(), node("node-y", "zone", "zone2").obj())
            .pods(
                on("node-a", "p-a1", "foo", "", "bar", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", "", "bar", ""),
                on("node-y", "p-y1", "foo", ""),
                on("node-y", "p-y2", "foo", "", "bar", ""),
                on("node-y", "p-y3", "foo", ""))
            .want("node-a", 85, "node-x", 100),
        when(
                "zone and hostname constraints with different selectors",
                zoneFooHostBar,
                host("node-a", "zone", "zone1"),
                host("node-b", "zone", "zone1"),
                host("node-x", "zone", "zone2"),
                host("node-y", "zone", "zone2"))
            .pods(
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", "", "bar", ""),
                on("node-y", "p-y1", "foo", ""),
                on("node-y", "p-y2", "bar", ""))
            .want("node-a", 60, "node-b", 20, "node-x", 100, "node-y", 60),
        when(
                "zone and hostname constraints with different selectors, some nodes empty",
                zoneFooHostBar,
                host("node-a", "zone", "zone1"),
                host("node-b", "zone", "zone1"),
                host("node-x", "zone", "zone2"),
                host("node-y", "zone", "zone2"))
            .pods(
                on("node-b", "p-b1", "bar", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", "", "bar", ""))
            .want("node-a", 100, "node-b", 60, "node-x", 40, "node-y", 0),
        when(
                "zone and hostname constraints with different selectors, one node infeasible",
                zoneFooHostBar,
                host("node-a", "zone", "zone1"),
                host("node-b", "zone", "zone1"),
                host("node-x", "zone", "zone2"))
            .failed(host("node-y", "zone", "zone2"))
            .pods(
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", "", "bar", ""),
                on("node-y", "p-y1", "foo", ""),
                on("node-y", "p-y2", "bar", ""))
            .want("node-a", 50, "node-b", 25, "node-x", 100),
        when("pods of other namespaces are not counted", hostFoo, host("node-a"), host("node-b"))
            .pods(
                pod("p-a1", "foo", "").namespace("ns1").node("node-a").obj(),
                on("node-a", "p-a2", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-b", "p-b2", "foo", ""))
            .want("node-a", 100, "node-b", 33),
        when("terminating pods are not counted", hostFoo, host("node-a"), host("node-b"))
            .pods(
                pod("p-a", "foo", "").node("node-a").terminating().obj(),
                on("node-b", "p-b", "foo", ""))
            .want("node-a", 100, "node-b", 0),
        when(
                "minDomains has no effect on soft constraints",
                pod("p", "foo", "")
                    .spreadConstraint(spread(2, "node", SA, FOO, 10, null, null, null))
                    .obj(),
                node("node-a", "node", "node-a").obj(),
                node("node-b", "node", "node-b").obj(),
                node("node-c", "node", "node-c").obj())
            .pods(concat(fooPods("a", 2), fooPods("b", 2), fooPods("c", 1)))
            .want("node-a", 75, "node-b", 75, "node-c", 100),
        when(
                "affinity policy Honor leaves pods on nodes outside the node selector uncounted",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "node", SA, FOO))
                    .obj(),
                node("node-a", "node", "node-a", "foo", "").obj(),
                node("node-b", "node", "node-b", "foo", "").obj(),
                node("node-c", "node", "node-c").obj())
            .pods(a2b1c1)
            .want("node-a", 0, "node-b", 33, "node-c", 100),
        when(
                "affinity policy Ignore counts pods on nodes outside the node selector",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "node", SA, FOO, null, IGNORE, null, null))
                    .obj(),
                node("node-a", "node", "node-a", "foo", "").obj(),
                node("node-b", "node", "node-b", "foo", "").obj(),
                node("node-c", "node", "node-c").obj())
            .pods(a2b1c1)
            .want("node-a", 66, "node-b", 100, "node-c", 100),
        when(
                "affinity policy Honor leaves pods on nodes outside the required affinity uncounted",
                pod("p", "foo", "")
                    .nodeAffinityTerm("foo", "In", "")
                    .spreadConstraint(spread(1, "node", SA, FOO))
                    .obj(),
                node("node-a", "node", "node-a", "foo", "").obj(),
                node("node-b", "node", "node-b", "foo", "").obj(),
                node("node-c", "node", "node-c").obj())
            .pods(a2b1c1)
            .want("node-a", 0, "node-b", 33, "node-c", 100),
        when(
                "affinity policy Ignore counts pods on nodes outside the required affinity",
                pod("p", "foo", "")
                    .nodeAffinityTerm("foo", "In", "")
                    .spreadConstraint(spread(1, "node", SA, FOO, null, IGNORE, null, null))
                    .obj(),
                node("node-a", "node", "node-a", "foo", "").obj(),
                node("node-b", "node", "node-b", "foo", "").obj(),
                node("node-c", "node", "node-c").obj())
            .pods(a2b1c1)
            .want("node-a", 66, "node-b", 100, "node-c", 100),
        when(
                "taints policy Honor leaves pods on untolerated tainted nodes uncounted",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "node", SA, FOO, null, null, HONOR, null))
                    .obj(),
                node("node-a", "node", "node-a").obj(),
                node("node-b", "node", "node-b").obj(),
                tainted(node("node-c", "node", "node-c")).obj())
            .pods(a2b1c1)
            .want("node-a", 0, "node-b", 33, "node-c", 100),
        when(
                "taints policy Ignore counts pods on tainted nodes",
                pod("p", "foo", "").spreadConstraint(spread(1, "node", SA, FOO)).obj(),
                node("node-a", "node", "node-a").obj(),
                node("node-b", "node", "node-b").obj(),
                tainted(node("node-c", "node", "node-c")).obj())
            .pods(a2b1c1)
            .want("node-a", 66, "node-b", 100, "node-c", 100),
        when(
                "matchLabelKeys narrows both constraints to pods carrying the pod's baz value",
                pod("p", "foo", "", "bar", "", "baz", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO, null, null, null, List.of("baz")))
                    .spreadConstraint(
                        spread(1, HOSTNAME, SA, BAR, null, null, null, List.of("baz")))
                    .obj(),
                zonedHosts)
            .pods(fooBarSpread)
            .want("node-a", 100, "node-b", 100, "node-c", 100, "node-d", 100),
        when(
                "matchLabelKeys is ANDed with empty selectors",
                pod("p", "foo", "", "bar", "")
                    .spreadConstraint(
                        spread(1, "zone", SA, EMPTY, null, null, null, List.of("foo")))
                    .spreadConstraint(
                        spread(1, HOSTNAME, SA, EMPTY, null, null, null, List.of("bar")))
                    .obj(),
                zonedHosts)
            .pods(fooBarSpread)
            .want("node-a", 60, "node-b", 20, "node-c", 60, "node-d", 100),
        when(
                "matchLabelKeys is ANDed with a non-empty selector",
                pod("p", "foo", "", "bar", "", "baz", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .spreadConstraint(
                        spread(1, HOSTNAME, SA, BAR, null, null, null, List.of("baz")))
                    .obj(),
                zonedHosts)
            .pods(
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", "", "bar", "", "baz", ""),
                on("node-c", "p-c1", "foo", ""),
                on("node-c", "p-c2", "bar", ""),
                on("node-c", "p-d3", "bar", "", "baz", ""))
            .want("node-a", 60, "node-b", 20, "node-c", 60, "node-d", 100));
  }

  /**
   * Runs PreScore over the feasible nodes, Score on each and NormalizeScore; returns the scores by
   * node.
   */
  static Map<String, Long> scores(PodTopologySpread plugin, Case c) {
    List<Node> all = new ArrayList<>(c.nodes());
    all.addAll(c.failed());
    List<NodeInfo> infos = Fixtures.snapshot(all, c.pods());
    List<NodeInfo> feasible = infos.subList(0, c.nodes().size());
    CycleState state = Fixtures.state(infos);
    PodInfo pod = PodInfo.of(c.pod());
    assertThat(plugin.preScore(state, pod, feasible)).isEqualTo(Status.success());
    long[] raw = new long[feasible.size()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = plugin.score(state, pod, feasible.get(i));
    }
    NodeScores scores = new NodeScores(feasible.toArray(new NodeInfo[0]), raw);
    assertThat(plugin.normalizeScore(state, pod, scores)).isEqualTo(Status.success());
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < scores.size(); i++) {
      out.put(scores.name(i), scores.get(i));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(Case c) {
    ObjectStore store = new ObjectStore();
    if (c.serviceSelector() != null) {
      store.put(
          new ServiceBuilder()
              .withNewMetadata()
              .withName("svc")
              .withNamespace("default")
              .endMetadata()
              .withNewSpec()
              .withSelector(c.serviceSelector())
              .endSpec()
              .build());
    }
    assertThat(scores(Fixtures.systemPlugin(store), c)).isEqualTo(c.want());
  }

  @Test
  void roundingIsGosHalfAwayFromZero() {
    assertThat(PodTopologySpread.roundHalfAwayFromZero(2.5)).isEqualTo(3);
    assertThat(PodTopologySpread.roundHalfAwayFromZero(3.4999999999999996)).isEqualTo(3);
    assertThat(PodTopologySpread.roundHalfAwayFromZero(0.49999999999999994)).isEqualTo(0);
    assertThat(PodTopologySpread.roundHalfAwayFromZero(-2.5)).isEqualTo(-3);
    assertThat(PodTopologySpread.roundHalfAwayFromZero(-0.4)).isEqualTo(0);
  }

  @Test
  void onlyIgnoredNodesAllScoreZero() {
    Case c =
        when(
                "all feasible nodes miss the zone key",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", SA, FOO)).obj(),
                host("node-a"),
                host("node-b"))
            .failed(host("node-c", "zone", "zone1"))
            .pods(fooPods("c", 1));
    assertThat(scores(Fixtures.listPlugin(new ObjectStore(), List.of()), c))
        .isEqualTo(Map.of("node-a", 0L, "node-b", 0L));
  }
}
