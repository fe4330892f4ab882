package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.Toleration;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.Parallelizer;
import io.schedext.framework.PodInfo;
import io.schedext.framework.StateData;
import io.schedext.kube.RequiredNodeAffinity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * What PreScore computes for Score, as upstream's {@code preScoreState}: the pod's soft constraints, the feasible
 * nodes that are not scored (they miss a topology key), the matching pods per domain of every non-hostname constraint
 * (only domains that some feasible node is in), and each constraint's normalising weight. Read-only once written, so
 * {@link #copy()} shares it.
 */
final class PreScoreState implements StateData {

  private final List<SpreadConstraint> constraints;
  private final boolean[] hostname;
  private final Set<String> ignoredNodes;
  private final List<Map<String, long[]>> podCounts;
  private final double[] weights;
  private final String namespace;
  private final SpreadConstraint.Counter[] counters;

  private PreScoreState(
      List<SpreadConstraint> constraints,
      boolean[] hostname,
      Set<String> ignoredNodes,
      List<Map<String, long[]>> podCounts,
      double[] weights,
      String namespace,
      SpreadConstraint.Counter[] counters) {
    this.constraints = constraints;
    this.hostname = hostname;
    this.ignoredNodes = ignoredNodes;
    this.podCounts = podCounts;
    this.weights = weights;
    this.namespace = namespace;
    this.counters = counters;
  }

  /** The pod counter of constraint {@code i} for this cycle's namespace. */
  SpreadConstraint.Counter counter(int i) {
    return counters[i];
  }

  /**
   * Registers the domains of the feasible {@code filtered} nodes (ignoring those that miss a key when
   * {@code requireAllTopologies}), weights each constraint by ln(domains + 2) (hostname: the scored nodes), then
   * counts the matching pods of those domains over every eligible node of {@code allNodes}.
   */
  static PreScoreState compute(
      List<SpreadConstraint> constraints,
      PodInfo pod,
      List<NodeInfo> filtered,
      List<NodeInfo> allNodes,
      boolean requireAllTopologies,
      Parallelizer parallelizer) {
    int n = constraints.size();
    boolean[] hostname = new boolean[n];
    List<Map<String, long[]>> podCounts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      hostname[i] = SpreadConstraint.LABEL_HOSTNAME.equals(constraints.get(i).topologyKey());
      podCounts.add(new HashMap<>());
    }
    Set<String> ignored = new HashSet<>();
    for (NodeInfo node : filtered) {
      if (requireAllTopologies && !SpreadConstraint.nodeHasAllKeys(node.labels(), constraints)) {
        ignored.add(node.name());
        continue;
      }
      for (int i = 0; i < n; i++) {
        if (!hostname[i]) {
          // A node without the key joins the "" domain: it only matters for the weight.
          podCounts.get(i).computeIfAbsent(valueOf(node, constraints.get(i)), v -> new long[1]);
        }
      }
    }
    double[] weights = new double[n];
    for (int i = 0; i < n; i++) {
      int size = hostname[i] ? filtered.size() - ignored.size() : podCounts.get(i).size();
      // StrictMath is fdlibm's log, the algorithm Go's math.Log ports, so weights agree to the last bit.
      weights[i] = StrictMath.log(size + 2);
    }

    RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod.pod());
    List<Toleration> tolerations = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getTolerations();
    SpreadConstraint.Counter[] counters = new SpreadConstraint.Counter[n];
    for (int i = 0; i < n; i++) {
      counters[i] = constraints.get(i).counter(pod.namespace());
    }
    // Per node, one count per constraint, in one flat array (row idx * n); nodes left out keep zeros.
    int[] countsByNode = new int[allNodes.size() * n];
    IntConsumer perNode = idx -> {
      NodeInfo node = allNodes.get(idx);
      if (node.node() == null
          || (requireAllTopologies && !SpreadConstraint.nodeHasAllKeys(node.labels(), constraints))) {
        return;
      }
      for (int i = 0; i < n; i++) {
        SpreadConstraint c = constraints.get(i);
        boolean counted = !hostname[i]
            && c.includesNode(node, affinity, tolerations)
            && podCounts.get(i).containsKey(valueOf(node, c));
        countsByNode[idx * n + i] = counted ? counters[i].count(node) : 0;
      }
    };
    if (parallelizer == null) {
      for (int idx = 0; idx < allNodes.size(); idx++) {
        perNode.accept(idx);
      }
    } else {
      parallelizer.until(allNodes.size(), perNode);
    }
    for (int idx = 0; idx < allNodes.size(); idx++) {
      for (int i = 0; i < n; i++) {
        int count = countsByNode[idx * n + i];
        if (count != 0) {
          podCounts.get(i).get(valueOf(allNodes.get(idx), constraints.get(i)))[0] += count;
        }
      }
    }
    return new PreScoreState(List.copyOf(constraints), hostname, ignored, podCounts, weights, pod.namespace(),
        counters);
  }

  private static String valueOf(NodeInfo node, SpreadConstraint c) {
    String v = node.label(c.topologyKey());
    return v == null ? "" : v;
  }

  /** The pod's soft constraints, in declaration order (hard ones excluded). */
  List<SpreadConstraint> constraints() {
    return constraints;
  }

  /** Whether constraint {@code i} spreads over hostnames (counted per node at Score). */
  boolean hostname(int i) {
    return hostname[i];
  }

  /** True when node {@code name} is not scored (it misses a topology key). */
  boolean ignored(String name) {
    return !ignoredNodes.isEmpty() && ignoredNodes.contains(name);
  }

  /** The matching pods in domain {@code value} of non-hostname constraint {@code i}, or -1 for an unknown domain. */
  long podCount(int i, String value) {
    long[] cell = podCounts.get(i).get(value);
    return cell == null ? -1 : cell[0];
  }

  /** The normalising weight of constraint {@code i}. */
  double weight(int i) {
    return weights[i];
  }

  /** The scheduled pod's namespace (only its pods count). */
  String namespace() {
    return namespace;
  }

  /** The nodes left unscored; for tests. */
  Set<String> ignoredNodes() {
    return Set.copyOf(ignoredNodes);
  }

  /** The matching pods per registered domain of constraint {@code i}; for tests. */
  Map<String, Long> domainCounts(int i) {
    Map<String, Long> out = new HashMap<>();
    podCounts.get(i).forEach((k, v) -> out.put(k, v[0]));
    return out;
  }

  /** This state: it never changes after PreScore. */
  @Override
  public StateData copy() {
    return this;
  }
}
