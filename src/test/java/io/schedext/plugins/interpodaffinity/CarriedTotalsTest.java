package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.both;
import static io.schedext.plugins.interpodaffinity.Fixtures.preferredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.preferredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.req;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.selector;
import static io.schedext.plugins.interpodaffinity.Fixtures.term;
import static io.schedext.plugins.interpodaffinity.Fixtures.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Affinity;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PreFilter (existing pods' anti-affinity, the pod's own required terms) and PreScore (topology scores) sum over the
 * cluster from totals carried from pod to pod: after any change (pods with and without terms added and removed, node
 * labels changed, nodes added and removed) their states and Skip decisions must equal those of a plugin that has
 * never seen the cluster; a cycle that changes its own PreFilter counts (AddPod, as preemption and nominated pods do)
 * must leave the totals alone; and a topology pair whose weights cancel out stays (at 0) while some node contributes
 * it, as upstream's merged map keeps it.
 */
class CarriedTotalsTest {

  private static final String ZONE = "zone";
  private static final String HOST = "host";
  private static final ObjectStore STORE = Fixtures.teamNamespaces();

  private static Map<String, String> nodeLabels(String name, Random rnd) {
    return rnd.nextInt(6) == 0 ? Map.of(HOST, name) : Map.of(ZONE, "z" + rnd.nextInt(3), HOST, name);
  }

  /** Existing pods of app a or b, with every kind of term on app a or b, per zone or host, or none. */
  private static PodInfo existing(String node, Random rnd) {
    Affinity affinity = switch (rnd.nextInt(8)) {
      case 0 -> requiredAntiAffinity(term(HOST, selector(req("app", "In", "a"))));
      case 1 -> requiredAntiAffinity(term(ZONE, selector(req("app", "In", "a"))));
      case 2 -> requiredAffinity(term(ZONE, selector(req("app", "In", "b"))));
      case 3 -> preferredAffinity(weighted(5, term(ZONE, selector(req("app", "In", "a")))));
      case 4 -> preferredAntiAffinity(weighted(5, term(HOST, selector(req("app", "In", "a")))));
      case 5 -> both(preferredAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))),
          preferredAntiAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
      default -> null;
    };
    return Fixtures.pod(node, Map.of("app", rnd.nextBoolean() ? "a" : "b"), affinity);
  }

  /**
   * The pods scheduled, in turn: app a without terms; app b without terms; app b with required affinity and
   * anti-affinity; app a preferring app b per zone.
   */
  private static List<PodInfo> incoming() {
    return List.of(
        Fixtures.pod("", Map.of("app", "a"), null),
        Fixtures.pod("", Map.of("app", "b"), null),
        Fixtures.pod("", Map.of("app", "b"), both(requiredAffinity(term(ZONE, selector(req("app", "In", "a")))),
            requiredAntiAffinity(term(HOST, selector(req("app", "In", "b")))))),
        Fixtures.pod("", Map.of("app", "a"),
            preferredAffinity(weighted(7, term(ZONE, selector(req("app", "In", "b")))))));
  }

  /** What one plugin answers for one pod on one cluster: PreFilter's counts (or status), PreScore's (or status). */
  private static List<Object> answers(InterPodAffinity plugin, List<NodeInfo> nodes, PodInfo pod, PodInfo addAfter) {
    CycleState state = TestFrameworks.cycleState(nodes);
    PreFilterResult r = plugin.preFilter(state, pod);
    Object preFilter = r.status();
    if (r.status().isSuccess()) {
      PreFilterState s = PreFilterState.read(state, InterPodAffinity.PRE_FILTER_STATE_KEY);
      preFilter = List.of(s.existingAntiAffinityCounts().asMap(), s.affinityCounts().asMap(),
          s.antiAffinityCounts().asMap());
      if (addAfter != null) {
        plugin.addPod(state, pod, addAfter, nodes.get(0));
      }
    }
    return List.of(preFilter, preScore(plugin, nodes, pod));
  }

  /** PreScore's scores per topology key and value, or its status when it did not succeed. */
  private static Object preScore(InterPodAffinity plugin, List<NodeInfo> nodes, PodInfo pod) {
    CycleState state = TestFrameworks.cycleState(nodes);
    Status s = plugin.preScore(state, pod, nodes);
    if (!s.isSuccess()) {
      return s;
    }
    return PreScoreState.read(state, InterPodAffinity.PRE_SCORE_STATE_KEY).asMap();
  }

  @Test
  void carriedTotalsEqualTotalsFromScratchAfterEveryChange() {
    for (long seed = 1; seed <= 4; seed++) {
      Random rnd = new Random(seed);
      InterPodAffinity carried = Fixtures.plugin("{}", STORE);
      List<NodeInfo> nodes = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String name = "n" + i;
        NodeInfo info = NodeInfo.of(MakeNode.node().name(name).labels(nodeLabels(name, rnd)).obj());
        for (int k = rnd.nextInt(4); k > 0; k--) {
          info.addPod(existing(name, rnd));
        }
        nodes.add(info);
      }
      int next = nodes.size();
      for (int step = 0; step < 60; step++) {
        int i = rnd.nextInt(nodes.size());
        NodeInfo copy = nodes.get(i).snapshotCopy();
        switch (rnd.nextInt(5)) {
          case 0 -> copy.addPod(existing(copy.name(), rnd));
          case 1 -> copy.setNode(MakeNode.node().name(copy.name()).labels(nodeLabels(copy.name(), rnd)).obj());
          case 2 -> {
            if (!copy.pods().isEmpty()) {
              copy.removePod(copy.pods().get(rnd.nextInt(copy.pods().size())).uid());
            }
          }
          case 3 -> {
            nodes.remove(i);
            copy = null;
          }
          default -> {
            String name = "n" + next++;
            nodes.add(i, NodeInfo.of(MakeNode.node().name(name).labels(nodeLabels(name, rnd)).obj()));
            copy = null;
          }
        }
        if (copy != null) {
          nodes.set(i, copy);
        }
        List<PodInfo> pods = incoming();
        for (int p = 0; p < pods.size(); p++) {
          List<Object> fresh = answers(Fixtures.plugin("{}", STORE), nodes, pods.get(p), null);
          PodInfo nominated = existing(nodes.get(0).name(), rnd);
          assertThat(answers(carried, nodes, pods.get(p), nominated)).as("seed %d step %d pod %d", seed, step, p)
              .isEqualTo(fresh);
        }
      }
    }
  }

  @Test
  void aPairWhoseWeightsCancelStaysUntilItsLastContributorGoes() {
    InterPodAffinity plugin = Fixtures.plugin("{}", STORE);
    // Existing pods in zone z1 that prefer app a (+3, twice) and avoid it (-3), each on its own node.
    PodInfo likes1 = Fixtures.pod("n1", Map.of("app", "b"),
        preferredAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
    PodInfo avoids = Fixtures.pod("n2", Map.of("app", "b"),
        preferredAntiAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
    PodInfo likes3 = Fixtures.pod("n3", Map.of("app", "b"),
        preferredAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
    NodeInfo n1 = NodeInfo.of(MakeNode.node().name("n1").labels(Map.of(ZONE, "z1")).obj(), likes1);
    NodeInfo n2 = NodeInfo.of(MakeNode.node().name("n2").labels(Map.of(ZONE, "z1")).obj(), avoids);
    NodeInfo n3 = NodeInfo.of(MakeNode.node().name("n3").labels(Map.of(ZONE, "z1")).obj(), likes3);
    PodInfo pod = incoming().get(0);
    assertThat(preScore(plugin, List.of(n1, n2, n3), pod)).isEqualTo(Map.of(ZONE, Map.of("z1", 3L)));

    // n3's pod goes: the sum is 0 but n1 and n2 still contribute the pair, so it stays (and PreScore succeeds).
    NodeInfo n3Empty = n3.snapshotCopy();
    n3Empty.removePod(likes3.uid());
    assertThat(preScore(plugin, List.of(n1, n2, n3Empty), pod)).isEqualTo(Map.of(ZONE, Map.of("z1", 0L)));
    assertThat(preScore(Fixtures.plugin("{}", STORE), List.of(n1, n2, n3Empty), pod))
        .as("from scratch").isEqualTo(Map.of(ZONE, Map.of("z1", 0L)));

    // Then the other two go: nothing is left, PreScore skips.
    NodeInfo n1Empty = n1.snapshotCopy();
    n1Empty.removePod(likes1.uid());
    NodeInfo n2Empty = n2.snapshotCopy();
    n2Empty.removePod(avoids.uid());
    assertThat(preScore(plugin, List.of(n1Empty, n2Empty, n3Empty), pod)).isEqualTo(Status.skip());
  }
}
