package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.SA;
import static io.schedext.plugins.podtopologyspread.Fixtures.ZONE;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PreScore (soft constraints) and PreFilter (hard ones) count the matching pods per domain from cluster-wide totals
 * carried from pod to pod: after any change to the cluster (pods added, node labels and taints changed, nodes added and
 * removed) the counts — and for PreFilter the domains without matching pods and the global minimum — must equal those
 * of a plugin that has never seen the cluster before, for every node inclusion policy, and a cycle that changes its
 * own counts (AddPod) must leave the totals alone.
 */
class CarriedTotalsTest {

  private static final String RACK = "example.com/rack";
  private static final String DISK = "example.com/disk";

  private static NodeWrapper node(int i, Random rnd) {
    NodeWrapper n = Fixtures.node("n" + i, ZONE, "z" + rnd.nextInt(3), RACK, "r" + rnd.nextInt(4),
        DISK, rnd.nextBoolean() ? "ssd" : "hdd");
    return rnd.nextInt(5) == 0 ? Fixtures.tainted(n) : n;
  }

  private static Pod existing(String node, int k, Random rnd) {
    return rnd.nextBoolean() ? Fixtures.on(node, "p" + k, "foo", "") : Fixtures.on(node, "p" + k, "bar", "");
  }

  /**
   * The pods scheduled, in turn: spread on zone (affinity honoured) and on rack (taints honoured as well), soft
   * ({@code when} ScheduleAnyway) or hard (DoNotSchedule); for SSD nodes tolerating the taint, for SSD nodes not
   * tolerating it, for HDD nodes. All count the same pods, so only what decides the eligible nodes tells their totals
   * apart.
   */
  private static Pod incoming(int variant, String when) {
    PodWrapper p = Fixtures.pod("incoming", "foo", "")
        .nodeSelector(Map.of(DISK, variant < 2 ? "ssd" : "hdd"))
        .spreadConstraint(spread(1, ZONE, when, FOO))
        .spreadConstraint(spread(1, RACK, when, FOO, null, HONOR, HONOR, null));
    if (variant == 0) {
      p.toleration("node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule");
    }
    return p.obj();
  }

  /**
   * PreFilter's domains with their counts and each constraint's global minimum; then a pod is added to the cycle's
   * own state, which must not reach the carried totals.
   */
  private static List<Object> preFilter(PodTopologySpread plugin, List<NodeInfo> nodes, int variant, Pod added) {
    CycleState state = Fixtures.state(nodes);
    PodInfo pod = PodInfo.of(incoming(variant, DNS));
    assertThat(plugin.preFilter(state, pod).status()).isEqualTo(Status.success());
    PreFilterState s = state.read(PodTopologySpread.PRE_FILTER_STATE_KEY, PreFilterState.class);
    List<Object> out = summary(s);
    // The same counts node by node, without totals.
    assertThat(out).isEqualTo(summary(PreFilterState.compute(s.constraints(), pod, nodes, null, null)));
    if (added != null) {
      plugin.addPod(state, pod, PodInfo.of(added), nodes.get(0));
    }
    return out;
  }

  private static List<Object> summary(PreFilterState s) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < s.constraints().size(); i++) {
      out.add(s.domainCounts(i));
      out.add(s.minMatchNum(i));
    }
    return out;
  }

  private static List<Map<String, Long>> counts(PodTopologySpread plugin, List<NodeInfo> nodes, int variant) {
    CycleState state = Fixtures.state(nodes);
    assertThat(plugin.preScore(state, PodInfo.of(incoming(variant, SA)), nodes)).isEqualTo(Status.success());
    PreScoreState s = state.read(PodTopologySpread.PRE_SCORE_STATE_KEY, PreScoreState.class);
    List<Map<String, Long>> out = new ArrayList<>();
    for (int i = 0; i < s.constraints().size(); i++) {
      out.add(s.domainCounts(i));
    }
    return out;
  }

  @Test
  void carriedCountsEqualCountsFromScratchAfterEveryChange() {
    for (long seed = 1; seed <= 4; seed++) {
      Random rnd = new Random(seed);
      ObjectStore store = new ObjectStore();
      PodTopologySpread carried = Fixtures.listPlugin(store, List.of());
      List<NodeInfo> nodes = new ArrayList<>();
      int pods = 0;
      for (int i = 0; i < 40; i++) {
        NodeInfo info = NodeInfo.of(node(i, rnd).obj());
        for (int k = rnd.nextInt(4); k > 0; k--) {
          info.addPod(PodInfo.of(existing(info.name(), pods++, rnd)));
        }
        nodes.add(info);
      }
      int next = nodes.size();
      for (int step = 0; step < 50; step++) {
        int i = rnd.nextInt(nodes.size());
        NodeInfo copy = nodes.get(i).snapshotCopy();
        switch (rnd.nextInt(5)) {
          case 0 -> copy.addPod(PodInfo.of(existing(copy.name(), pods++, rnd)));
          case 1 -> copy.setNode(node(Integer.parseInt(copy.name().substring(1)), rnd).obj());
          case 2 -> {
            if (!copy.pods().isEmpty()) {
              copy.removePod(copy.pods().get(0).uid());
            }
          }
          case 3 -> {
            nodes.remove(i);
            copy = null;
          }
          default -> {
            nodes.add(i, NodeInfo.of(node(next++, rnd).obj()));
            copy = null;
          }
        }
        if (copy != null) {
          nodes.set(i, copy);
        }
        for (int variant = 0; variant < 3; variant++) {
          List<Map<String, Long>> fresh = counts(Fixtures.listPlugin(store, List.of()), nodes, variant);
          assertThat(counts(carried, nodes, variant)).as("seed %d step %d pod %d", seed, step, variant)
              .isEqualTo(fresh);
          List<Object> freshFilter = preFilter(Fixtures.listPlugin(store, List.of()), nodes, variant, null);
          assertThat(preFilter(carried, nodes, variant, existing(nodes.get(0).name(), pods++, rnd)))
              .as("PreFilter, seed %d step %d pod %d", seed, step, variant).isEqualTo(freshFilter);
        }
      }
    }
  }
}
