package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.both;
import static io.schedext.plugins.interpodaffinity.Fixtures.req;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.selector;
import static io.schedext.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Affinity;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.testing.MakeNode;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PreFilter counts the existing pods' anti-affinity and the pod's own required terms from totals carried from pod to
 * pod: after any change to the cluster, and after a cycle changed its own copy of the counts (AddPod, as preemption
 * and nominated pods do), its counts must equal those of a plugin that has never seen the cluster.
 */
class PreFilterCarriedTotalsTest {

  private static final String ZONE = "zone";
  private static final String HOST = "host";

  private static Map<String, String> nodeLabels(String name, Random rnd) {
    return rnd.nextInt(6) == 0 ? Map.of(HOST, name) : Map.of(ZONE, "z" + rnd.nextInt(3), HOST, name);
  }

  /** Existing pods of app a or b; some keep app a off their host or zone, some require app b in their zone. */
  private static PodInfo existing(String node, Random rnd) {
    Affinity affinity = switch (rnd.nextInt(4)) {
      case 0 -> requiredAntiAffinity(term(HOST, selector(req("app", "In", "a"))));
      case 1 -> requiredAntiAffinity(term(ZONE, selector(req("app", "In", "a"))));
      case 2 -> requiredAffinity(term(ZONE, selector(req("app", "In", "b"))));
      default -> null;
    };
    return Fixtures.pod(node, Map.of("app", rnd.nextBoolean() ? "a" : "b"), affinity);
  }

  /** The pods scheduled, in turn: app a without terms; app b with required affinity and anti-affinity. */
  private static PodInfo incoming(int variant) {
    return variant == 0
        ? Fixtures.pod("", Map.of("app", "a"), null)
        : Fixtures.pod("", Map.of("app", "b"), both(requiredAffinity(term(ZONE, selector(req("app", "In", "a")))),
            requiredAntiAffinity(term(HOST, selector(req("app", "In", "b"))))));
  }

  /** The three counts PreFilter leaves, or its status when it did not write a state. */
  private static Object preFilter(InterPodAffinity plugin, List<NodeInfo> nodes, PodInfo pod, PodInfo addAfter) {
    CycleState state = TestFrameworks.cycleState(nodes);
    PreFilterResult r = plugin.preFilter(state, pod);
    if (!r.status().isSuccess()) {
      return r.status();
    }
    PreFilterState s = PreFilterState.read(state, InterPodAffinity.PRE_FILTER_STATE_KEY);
    Object counts = List.of(s.existingAntiAffinityCounts().asMap(), s.affinityCounts().asMap(),
        s.antiAffinityCounts().asMap());
    if (addAfter != null) {
      // The cycle's own copy changes; the carried totals must not.
      plugin.addPod(state, pod, addAfter, nodes.get(0));
    }
    return counts;
  }

  @Test
  void carriedCountsEqualCountsFromScratchAfterEveryChange() {
    ObjectStore store = Fixtures.teamNamespaces();
    for (long seed = 1; seed <= 4; seed++) {
      Random rnd = new Random(seed);
      InterPodAffinity carried = Fixtures.plugin("{}", store);
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
        for (int variant = 0; variant < 2; variant++) {
          PodInfo pod = incoming(variant);
          Object fresh = preFilter(Fixtures.plugin("{}", store), nodes, pod, null);
          PodInfo nominated = existing(nodes.get(0).name(), rnd);
          assertThat(preFilter(carried, nodes, pod, nominated)).as("seed %d step %d pod %d", seed, step, variant)
              .isEqualTo(fresh);
        }
      }
    }
  }
}
