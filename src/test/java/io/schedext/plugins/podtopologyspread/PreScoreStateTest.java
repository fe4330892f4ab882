package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.BAR;
import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.HOSTNAME;
import static io.schedext.plugins.podtopologyspread.Fixtures.IGNORE;
import static io.schedext.plugins.podtopologyspread.Fixtures.SA;
import static io.schedext.plugins.podtopologyspread.Fixtures.ZONE;
import static io.schedext.plugins.podtopologyspread.Fixtures.labels;
import static io.schedext.plugins.podtopologyspread.Fixtures.node;
import static io.schedext.plugins.podtopologyspread.Fixtures.on;
import static io.schedext.plugins.podtopologyspread.Fixtures.pod;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static io.schedext.plugins.podtopologyspread.Fixtures.tainted;
import static io.schedext.plugins.podtopologyspread.PreFilterStateTest.c;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of upstream's TestPreScoreSkip and TestPreScoreStateEmptyNodes: the soft constraints,
 * unscored nodes, counted domains and weights that PreScore leaves for Score.
 */
class PreScoreStateTest {

  /** One expected soft constraint with its counted domains and its weight. */
  record Want(String constraint, Map<String, Long> counts, double weight) {}

  /**
   * @param defaults the List default constraints, or null for System defaulting
   * @param rsSelector the selector of ReplicaSet "rs1" in namespace default, or null for no
   *     ReplicaSet
   * @param want null when PreScore must skip
   */
  record Case(
      String name,
      Pod pod,
      List<Node> nodes,
      List<Pod> pods,
      List<TopologySpreadConstraint> defaults,
      LabelSelector rsSelector,
      Set<String> ignored,
      List<Want> want) {
    @Override
    public String toString() {
      return name;
    }

    Case rs(LabelSelector selector) {
      return new Case(name, pod, nodes, pods, defaults, selector, ignored, want);
    }

    Case pods(Pod... existing) {
      return new Case(name, pod, nodes, List.of(existing), defaults, rsSelector, ignored, want);
    }

    Case ignored(String... names) {
      return new Case(name, pod, nodes, pods, defaults, rsSelector, Set.of(names), want);
    }

    Case want(String constraint, Map<String, Long> counts, int domains) {
      List<Want> w = new ArrayList<>(want == null ? List.of() : want);
      w.add(new Want(constraint, counts, StrictMath.log(domains + 2)));
      return new Case(name, pod, nodes, pods, defaults, rsSelector, ignored, w);
    }
  }

  static Case list(String name, Pod pod, List<Node> nodes, TopologySpreadConstraint... defaults) {
    return new Case(name, pod, nodes, List.of(), List.of(defaults), null, Set.of(), null);
  }

  static Case system(String name, Pod pod, List<Node> nodes) {
    return new Case(name, pod, nodes, List.of(), null, null, Set.of(), null);
  }

  static List<Node> abx() {
    return List.of(
        node("node-a", "zone", "zone1", HOSTNAME, "node-a").obj(),
        node("node-b", "zone", "zone1", HOSTNAME, "node-b").obj(),
        node("node-x", "zone", "zone2", HOSTNAME, "node-x").obj());
  }

  static List<Node> abxFoo() {
    return List.of(
        node("node-a", "zone", "zone1", "foo", "", HOSTNAME, "node-a").obj(),
        node("node-b", "zone", "zone1", "foo", "", HOSTNAME, "node-b").obj(),
        node("node-x", "zone", "zone2", HOSTNAME, "node-x").obj());
  }

  static Stream<Case> cases() {
    Pod rsPod = pod("p", "foo", "tar", "baz", "sup").owner("ReplicaSet", "rs1").obj();
    return Stream.of(
        list(
            "a pod without soft constraints skips scoring",
            pod("p").obj(),
            List.of(
                node("node-a", HOSTNAME, "node-a").obj(),
                node("node-b", HOSTNAME, "node-b").obj())),
        list(
                "default constraints skip scoring when the pod's controller is unknown",
                pod("p", "foo", "bar", "baz", "sup").owner("ReplicaSet", "rs2").obj(),
                List.of(node("node-a", "planet", "mars").obj()),
                spread(2, "planet", SA, null))
            .rs(PodWrapper.existsSelector("tar")),
        list(
                "zone and hostname constraints register the zones and weigh hostname by the nodes",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .spreadConstraint(spread(1, HOSTNAME, SA, FOO))
                    .obj(),
                abx())
            .want(c(1, "zone", FOO), Map.of("zone1", 0L, "zone2", 0L), 2)
            .want(c(1, HOSTNAME, FOO), Map.of(), 3),
        list(
                "a null selector is kept as matching nothing",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", SA, null)).obj(),
                abx())
            .want(c(1, "zone", null), Map.of("zone1", 0L, "zone2", 0L), 2),
        list(
                "a node without the zone key is ignored and left out of both weights",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .spreadConstraint(spread(1, HOSTNAME, SA, BAR))
                    .obj(),
                List.of(
                    node("node-a", "zone", "zone1", HOSTNAME, "node-a").obj(),
                    node("node-b", "zone", "zone1", HOSTNAME, "node-b").obj(),
                    node("node-x", HOSTNAME, "node-x").obj()))
            .ignored("node-x")
            .want(c(1, "zone", FOO), Map.of("zone1", 0L), 1)
            .want(c(1, HOSTNAME, BAR), Map.of(), 2),
        system(
                "system defaults take the replicaset's selector and treat a missing zone as its own zone",
                rsPod,
                List.of(
                    node("node-a", HOSTNAME, "node-a", ZONE, "mars").obj(),
                    node("node-b", HOSTNAME, "node-b", ZONE, "mars").obj(),
                    node("node-c", HOSTNAME, "node-c").obj(),
                    node("node-d", HOSTNAME, "node-d").obj()))
            .rs(FOO)
            .pods(on("node-c", "p-c1", "foo", "x"), on("node-a", "p-a1", "foo", "y"))
            .want(c(3, HOSTNAME, FOO), Map.of(), 4)
            .want(c(5, ZONE, FOO), Map.of("mars", 1L, "", 1L), 2),
        list(
                "listed soft default constraints take the replicaset's selector",
                rsPod,
                List.of(
                    node("node-a", "rack", "rack1", HOSTNAME, "node-a", "planet", "mars").obj()),
                spread(1, HOSTNAME, SA, null),
                spread(2, "rack", DNS, null),
                spread(2, "planet", SA, null))
            .rs(FOO)
            .want(c(1, HOSTNAME, FOO), Map.of(), 1)
            .want(c(2, "planet", FOO), Map.of("mars", 0L), 1),
        list(
                "the pod's own soft constraints replace the default ones",
                pod("p", "foo", "bar", "baz", "sup")
                    .owner("ReplicaSet", "rs1")
                    .spreadConstraint(spread(1, "zone", DNS, BAR))
                    .spreadConstraint(spread(2, "planet", SA, labels("baz", "sup")))
                    .obj(),
                List.of(node("node-a", "planet", "mars", "galaxy", "andromeda").obj()),
                spread(2, "galaxy", SA, null))
            .rs(FOO)
            .want(c(2, "planet", labels("baz", "sup")), Map.of("mars", 0L), 1),
        list(
                "affinity policy Honor keeps the domains of feasible nodes",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "zone", SA, BAR))
                    .obj(),
                abxFoo())
            .want(c(1, "zone", BAR), Map.of("zone1", 0L, "zone2", 0L), 2),
        list(
                "affinity policy Ignore is recorded",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "zone", SA, BAR, null, IGNORE, null, null))
                    .obj(),
                abxFoo())
            .want(c(1, "zone", BAR, IGNORE, IGNORE), Map.of("zone1", 0L, "zone2", 0L), 2),
        list(
                "taints policy Honor is recorded",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", SA, BAR, null, null, HONOR, null))
                    .obj(),
                List.of(
                    node("node-a", "zone", "zone1", "foo", "", HOSTNAME, "node-a").obj(),
                    node("node-b", "zone", "zone1", "foo", "", HOSTNAME, "node-b").obj(),
                    tainted(node("node-x", "zone", "zone2", HOSTNAME, "node-x")).obj()))
            .want(c(1, "zone", BAR, HONOR, HONOR), Map.of("zone1", 0L, "zone2", 0L), 2),
        list(
                "only domains of feasible nodes are counted, over every eligible node",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .obj(),
                abxFoo())
            .pods(
                on("node-a", "p-a1", "foo", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "foo", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 2L, "zone2", 0L), 2),
        twelveZones());
  }

  /**
   * More domains than PreScore compares by identity, each on two nodes (so every domain is seen
   * twice).
   */
  static Case twelveZones() {
    List<Node> nodes = new ArrayList<>();
    Map<String, Long> counts = new HashMap<>();
    for (int i = 0; i < 24; i++) {
      String zone = new String("z" + (i % 12));
      nodes.add(
          node("node-" + i, ZONE, zone, "rack", new String("r" + (i % 12)), HOSTNAME, "node-" + i)
              .obj());
      counts.put(zone, i % 12 == 11 ? 2L : 0L);
    }
    return list(
            "more domains than are remembered by identity are each registered once",
            pod("p", "foo", "")
                .spreadConstraint(spread(1, ZONE, SA, FOO))
                .spreadConstraint(spread(1, "rack", SA, FOO))
                .obj(),
            nodes)
        .pods(on("node-11", "p-1", "foo", ""), on("node-23", "p-2", "foo", ""))
        .want(c(1, ZONE, FOO), counts, 12)
        .want(
            c(1, "rack", FOO),
            counts.entrySet().stream()
                .collect(Collectors.toMap(e -> "r" + e.getKey().substring(1), Map.Entry::getValue)),
            12);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preScore(Case c) {
    ObjectStore store = new ObjectStore();
    if (c.rsSelector() != null) {
      store.put(
          new ReplicaSetBuilder()
              .withNewMetadata()
              .withName("rs1")
              .withNamespace("default")
              .endMetadata()
              .withNewSpec()
              .withSelector(c.rsSelector())
              .endSpec()
              .build());
    }
    PodTopologySpread plugin =
        c.defaults() == null
            ? Fixtures.systemPlugin(store)
            : Fixtures.listPlugin(store, c.defaults());
    List<NodeInfo> infos = Fixtures.snapshot(c.nodes(), c.pods());
    CycleState state = Fixtures.state(infos);

    Status s = plugin.preScore(state, PodInfo.of(c.pod()), infos);

    if (c.want() == null) {
      assertThat(s).isEqualTo(Status.skip());
      return;
    }
    assertThat(s).isEqualTo(Status.success());
    PreScoreState got = state.read(PodTopologySpread.PRE_SCORE_STATE_KEY, PreScoreState.class);
    List<Want> wants = new ArrayList<>();
    for (int i = 0; i < got.constraints().size(); i++) {
      wants.add(
          new Want(
              PreFilterStateTest.render(got.constraints().get(i)),
              got.domainCounts(i),
              got.weight(i)));
    }
    assertThat(wants).isEqualTo(c.want());
    assertThat(got.ignoredNodes()).isEqualTo(c.ignored());
  }
}
