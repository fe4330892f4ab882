package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.BAR;
import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.IGNORE;
import static io.schedext.plugins.podtopologyspread.Fixtures.SA;
import static io.schedext.plugins.podtopologyspread.Fixtures.ZONE;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
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
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreScore (soft constraints) and PreFilter (hard ones) count the matching pods per domain from
 * cluster-wide totals carried from pod to pod, and from per-node counts remembered on the node
 * infos: after any change to the cluster (pods added, removed and relabelled, node labels and
 * taints changed, nodes added and removed) the counts — and for PreFilter the domains without
 * matching pods and the global minimum — must equal those of a plugin that has never seen the
 * cluster, over node infos that have never been counted, and a cycle that changes its own counts
 * (AddPod) must leave the totals alone. The pods scheduled in turn differ from one another in one
 * input of the totals each (namespace, selector, topology keys, node selector, required node
 * affinity, each inclusion policy, tolerations), and each of them must get a key of its own ({@link
 * DomainTotals.Key}): totals kept under a key that misses an input are handed to the wrong pod.
 */
class CarriedTotalsTest {

  private static final String RACK = "example.com/rack";
  private static final String DISK = "example.com/disk";
  private static final String GPU = "example.com/gpu";
  private static final String OTHER = "other";

  private static NodeWrapper node(int i, Random rnd) {
    NodeWrapper n =
        Fixtures.node(
            "n" + i,
            ZONE,
            "z" + rnd.nextInt(3),
            RACK,
            "r" + rnd.nextInt(4),
            DISK,
            rnd.nextBoolean() ? "ssd" : "hdd");
    if (rnd.nextInt(3) == 0) {
      n.label(GPU, "g" + rnd.nextInt(2));
    }
    return rnd.nextInt(5) == 0 ? Fixtures.tainted(n) : n;
  }

  /** An existing pod of app foo or bar, in namespace default or other. */
  private static Pod existing(String node, int k, Random rnd) {
    PodWrapper p =
        rnd.nextBoolean() ? Fixtures.pod("p" + k, "foo", "") : Fixtures.pod("p" + k, "bar", "");
    return p.namespace(rnd.nextInt(4) == 0 ? OTHER : "default").node(node).obj();
  }

  /**
   * Replaced by the pod's own {@code whenUnsatisfiable} (the GPU constraint is hard or soft with
   * the rest).
   */
  private static final String WHEN_PLACEHOLDER = "when";

  /** One pod scheduled in turn: how it differs from the base pod, and its second constraint. */
  record Variant(
      String name,
      UnaryOperator<PodWrapper> change,
      String rackKey,
      LabelSelector rackSelector,
      String rackAffinityPolicy,
      String rackTaintsPolicy) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Variant BASE =
      new Variant(
          "the base pod: zone and rack over foo, SSD nodes, taints honoured on rack",
          p -> p,
          RACK,
          FOO,
          HONOR,
          HONOR);

  /** The base pod and pods that differ from it in one input of the carried totals each. */
  private static final List<Variant> VARIANTS =
      List.of(
          BASE,
          new Variant(
              "tolerating the taint",
              p -> p.toleration("node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"),
              RACK,
              FOO,
              HONOR,
              HONOR),
          new Variant("ignoring taints on rack", p -> p, RACK, FOO, HONOR, IGNORE),
          new Variant("ignoring node affinity on rack", p -> p, RACK, FOO, IGNORE, HONOR),
          new Variant(
              "for HDD nodes", p -> p.nodeSelector(Map.of(DISK, "hdd")), RACK, FOO, HONOR, HONOR),
          new Variant(
              "for SSD nodes by required node affinity",
              p -> p.nodeSelector(Map.of()).nodeAffinityTerm(DISK, "In", "ssd"),
              RACK,
              FOO,
              HONOR,
              HONOR),
          new Variant("counting bar on rack", p -> p, RACK, BAR, HONOR, HONOR),
          new Variant("spreading over disks instead of racks", p -> p, DISK, FOO, HONOR, HONOR),
          new Variant("in namespace other", p -> p.namespace(OTHER), RACK, FOO, HONOR, HONOR),
          new Variant(
              "spreading over GPU nodes as well",
              p -> p.spreadConstraint(spread(3, GPU, WHEN_PLACEHOLDER, FOO)),
              RACK,
              FOO,
              HONOR,
              HONOR));

  private static Pod incoming(Variant v, String when) {
    PodWrapper p =
        Fixtures.pod("incoming", "foo", "")
            .nodeSelector(Map.of(DISK, "ssd"))
            .spreadConstraint(spread(1, ZONE, when, FOO))
            .spreadConstraint(
                spread(
                    1,
                    v.rackKey(),
                    when,
                    v.rackSelector(),
                    null,
                    v.rackAffinityPolicy(),
                    v.rackTaintsPolicy(),
                    null));
    Pod pod = v.change().apply(p).obj();
    pod.getSpec()
        .getTopologySpreadConstraints()
        .forEach(
            c -> {
              if (WHEN_PLACEHOLDER.equals(c.getWhenUnsatisfiable())) {
                c.setWhenUnsatisfiable(when);
              }
            });
    return pod;
  }

  /**
   * The node infos as a cluster that was never counted holds them: the same content, nothing
   * remembered.
   */
  private static List<NodeInfo> uncounted(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::snapshotCopy).toList();
  }

  /**
   * PreFilter's domains with their counts and each constraint's global minimum; then a pod is added
   * to the cycle's own state, which must not reach the carried totals.
   */
  private static List<Object> preFilter(
      PodTopologySpread plugin, List<NodeInfo> nodes, Pod incoming, Pod added) {
    CycleState state = Fixtures.state(nodes);
    PodInfo pod = PodInfo.of(incoming);
    assertThat(plugin.preFilter(state, pod).status()).isEqualTo(Status.success());
    PreFilterState s = state.read(PodTopologySpread.PRE_FILTER_STATE_KEY, PreFilterState.class);
    List<Object> out = summary(s);
    // The same counts node by node, without totals.
    assertThat(out)
        .isEqualTo(
            summary(PreFilterState.compute(s.constraints(), pod, uncounted(nodes), null, null)));
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

  private static List<Map<String, Long>> preScore(
      PodTopologySpread plugin, List<NodeInfo> nodes, Pod incoming) {
    CycleState state = Fixtures.state(nodes);
    assertThat(plugin.preScore(state, PodInfo.of(incoming), nodes)).isEqualTo(Status.success());
    PreScoreState s = state.read(PodTopologySpread.PRE_SCORE_STATE_KEY, PreScoreState.class);
    List<Map<String, Long>> out = new ArrayList<>();
    for (int i = 0; i < s.constraints().size(); i++) {
      out.add(s.domainCounts(i));
    }
    return out;
  }

  /**
   * A copy of {@code info} with one change (or null when the node goes), as the cache makes them.
   */
  private static NodeInfo change(NodeInfo info, int kind, int[] pods, Random rnd) {
    NodeInfo copy = info.snapshotCopy();
    switch (kind) {
      case 0 -> copy.addPod(PodInfo.of(existing(copy.name(), pods[0]++, rnd)));
      case 1 -> copy.setNode(node(Integer.parseInt(copy.name().substring(1)), rnd).obj());
      case 2 -> {
        if (!copy.pods().isEmpty()) {
          copy.removePod(copy.pods().get(rnd.nextInt(copy.pods().size())).uid());
        }
      }
      case 3 -> {
        // A pod relabelled: the same pod (name and uid) with the other app label.
        if (!copy.pods().isEmpty()) {
          PodInfo old = copy.pods().get(rnd.nextInt(copy.pods().size()));
          copy.removePod(old.uid());
          Pod relabelled =
              Fixtures.pod(old.name(), old.labels().containsKey("foo") ? "bar" : "foo", "")
                  .namespace(old.namespace())
                  .node(copy.name())
                  .obj();
          copy.addPod(PodInfo.of(relabelled));
        }
      }
      default -> copy = null;
    }
    return copy;
  }

  @Test
  void carriedCountsEqualCountsFromScratchAfterEveryChange() {
    for (long seed = 1; seed <= 3; seed++) {
      Random rnd = new Random(seed);
      ObjectStore store = new ObjectStore();
      PodTopologySpread carried = Fixtures.listPlugin(store, List.of());
      List<NodeInfo> nodes = new ArrayList<>();
      int[] pods = {0};
      for (int i = 0; i < 40; i++) {
        NodeInfo info = NodeInfo.of(node(i, rnd).obj());
        for (int k = rnd.nextInt(4); k > 0; k--) {
          info.addPod(PodInfo.of(existing(info.name(), pods[0]++, rnd)));
        }
        nodes.add(info);
      }
      int next = nodes.size();
      for (int step = 0; step < 30; step++) {
        int i = rnd.nextInt(nodes.size());
        int kind = rnd.nextInt(6);
        if (kind == 5) {
          nodes.add(i, NodeInfo.of(node(next++, rnd).obj()));
        } else {
          NodeInfo changed = change(nodes.get(i), kind, pods, rnd);
          if (changed == null) {
            nodes.remove(i);
          } else {
            nodes.set(i, changed);
          }
        }
        for (Variant v : VARIANTS) {
          String as = "seed " + seed + " step " + step + " pod " + v.name();
          List<Map<String, Long>> fresh =
              preScore(Fixtures.listPlugin(store, List.of()), uncounted(nodes), incoming(v, SA));
          assertThat(preScore(carried, nodes, incoming(v, SA)))
              .as("PreScore, " + as)
              .isEqualTo(fresh);
          List<Object> freshFilter =
              preFilter(
                  Fixtures.listPlugin(store, List.of()), uncounted(nodes), incoming(v, DNS), null);
          assertThat(
                  preFilter(
                      carried,
                      nodes,
                      incoming(v, DNS),
                      existing(nodes.get(0).name(), pods[0]++, rnd)))
              .as("PreFilter, " + as)
              .isEqualTo(freshFilter);
        }
      }
    }
  }

  /**
   * The key of the second constraint's totals, as PreFilter ({@code keepEmpty}) and PreScore (not,
   * with every constraint's key required when {@code requireAll}) build it.
   */
  private static DomainTotals.Key rackKey(
      Pod pod, String when, boolean keepEmpty, boolean requireAll) {
    PodInfo info = PodInfo.of(pod);
    List<SpreadConstraint> constraints =
        SpreadConstraint.compile(pod.getSpec().getTopologySpreadConstraints(), info.labels(), when);
    SpreadConstraint rack = constraints.get(1);
    return DomainTotals.Key.of(
        rack,
        rack.matchingPods(info.namespace()),
        requireAll ? SpreadConstraint.topologyKeys(constraints) : null,
        info,
        keepEmpty);
  }

  static List<Variant> changedVariants() {
    return VARIANTS.subList(1, VARIANTS.size());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("changedVariants")
  void aPodDifferingInOneInputGetsTotalsOfItsOwn(Variant v) {
    for (String when : List.of(DNS, SA)) {
      assertThat(rackKey(incoming(v, when), when, true, true))
          .as(when)
          .isNotEqualTo(rackKey(incoming(BASE, when), when, true, true));
    }
  }

  @Test
  void theSameInputsGiveAnEqualKeyAndTheSameMatchingPodsInstance() {
    DomainTotals.Key a = rackKey(incoming(BASE, DNS), DNS, true, true);
    DomainTotals.Key b = rackKey(incoming(BASE, DNS), DNS, true, true);
    assertThat(b).isEqualTo(a).isNotSameAs(a);
    assertThat(b.pods()).as("interned, so node memo lookups compare references").isSameAs(a.pods());
  }

  @Test
  void whetherEveryKeyIsRequiredAndWhetherEmptyNodesCountArePartOfTheKey() {
    Pod pod = incoming(BASE, SA);
    DomainTotals.Key preFilter = rackKey(pod, SA, true, true);
    assertThat(rackKey(pod, SA, false, true)).as("PreScore's use").isNotEqualTo(preFilter);
    assertThat(rackKey(pod, SA, false, false))
        .as("keys not required")
        .isNotEqualTo(rackKey(pod, SA, false, true));
  }
}
