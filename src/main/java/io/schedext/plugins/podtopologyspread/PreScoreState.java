package io.schedext.plugins.podtopologyspread;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.RunningTotals;
import io.schedext.framework.StateData;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.kube.RequiredNodeAffinity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What PreScore computes for Score, as upstream's {@code preScoreState}: the pod's soft
 * constraints, the feasible nodes that are not scored (they miss a topology key), the matching pods
 * per domain of every non-hostname constraint (only domains that some feasible node is in), and
 * each constraint's normalising weight. Read-only once written, so {@link #copy()} shares it.
 */
final class PreScoreState implements StateData {

  private final List<SpreadConstraint> constraints;
  private final boolean[] hostname;
  private final Set<String> ignoredNodes;
  private final List<Map<String, long[]>> podCounts;
  private final double[] weights;
  private final String namespace;
  private final SpreadConstraint.MatchingPods[] matching;

  private PreScoreState(
      List<SpreadConstraint> constraints,
      boolean[] hostname,
      Set<String> ignoredNodes,
      List<Map<String, long[]>> podCounts,
      double[] weights,
      String namespace,
      SpreadConstraint.MatchingPods[] matching) {
    this.constraints = constraints;
    this.hostname = hostname;
    this.ignoredNodes = ignoredNodes;
    this.podCounts = podCounts;
    this.weights = weights;
    this.namespace = namespace;
    this.matching = matching;
  }

  /** The pods constraint {@code i} counts in this cycle's namespace. */
  SpreadConstraint.MatchingPods matchingPods(int i) {
    return matching[i];
  }

  /**
   * Registers the domains of the feasible {@code filtered} nodes (ignoring those that miss a key
   * when {@code requireAllTopologies}), weights each constraint by ln(domains + 2) (hostname: the
   * scored nodes), then counts the matching pods of those domains over every eligible node of
   * {@code allNodes}: from {@code totals}, adjusted for the nodes changed since the last pod
   * counted the same way.
   */
  static PreScoreState compute(
      List<SpreadConstraint> constraints,
      PodInfo pod,
      List<NodeInfo> filtered,
      List<NodeInfo> allNodes,
      boolean requireAllTopologies,
      Parallelizer parallelizer,
      RunningTotals<DomainTotals.Key, DomainTotals.Share, Map<String, long[]>> totals) {
    int n = constraints.size();
    boolean[] hostname = new boolean[n];
    List<Map<String, long[]>> podCounts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      hostname[i] = SpreadConstraint.LABEL_HOSTNAME.equals(constraints.get(i).topologyKey());
      podCounts.add(new HashMap<>());
    }
    Set<String> ignored = new HashSet<>();
    // Per constraint, the first few domains registered, compared by identity before the map is
    // consulted: zone values are shared instances, so almost every node is settled by a reference
    // comparison or two.
    String[][] seen = new String[n][SEEN];
    int[] seenCount = new int[n];
    for (int k = 0; k < filtered.size(); k++) {
      NodeInfo node = filtered.get(k);
      if (requireAllTopologies && !SpreadConstraint.nodeHasAllKeys(node, constraints)) {
        ignored.add(node.name());
        continue;
      }
      for (int i = 0; i < n; i++) {
        if (!hostname[i]) {
          // A node without the key joins the "" domain: it only matters for the weight.
          register(podCounts.get(i), valueOf(node, constraints.get(i)), seen[i], seenCount, i);
        }
      }
    }
    double[] weights = new double[n];
    for (int i = 0; i < n; i++) {
      int size = hostname[i] ? filtered.size() - ignored.size() : podCounts.get(i).size();
      // StrictMath is fdlibm's log, the algorithm Go's math.Log ports, so weights agree to the last
      // bit.
      weights[i] = StrictMath.log(size + 2);
    }

    RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod.pod());
    SpreadConstraint.MatchingPods[] matching = new SpreadConstraint.MatchingPods[n];
    for (int i = 0; i < n; i++) {
      matching[i] = constraints.get(i).matchingPods(pod.namespace());
    }
    List<String> requiredKeys =
        requireAllTopologies ? SpreadConstraint.topologyKeys(constraints) : null;
    for (int i = 0; i < n; i++) {
      Map<String, long[]> registered = podCounts.get(i);
      if (hostname[i] || registered.isEmpty()) {
        continue;
      }
      DomainTotals.Key key =
          DomainTotals.Key.of(constraints.get(i), matching[i], requiredKeys, pod, false);
      totals.total(
          key,
          allNodes,
          new DomainTotals(key, affinity),
          parallelizer,
          total -> {
            for (Map.Entry<String, long[]> e : registered.entrySet()) {
              long[] cell = total.get(e.getKey());
              e.getValue()[0] = cell == null ? 0 : cell[0];
            }
            return null;
          });
    }
    return new PreScoreState(
        List.copyOf(constraints), hostname, ignored, podCounts, weights, pod.namespace(), matching);
  }

  /** Domains per constraint remembered by identity in {@link #compute}. */
  private static final int SEEN = 8;

  private static void register(
      Map<String, long[]> domains, String value, String[] seen, int[] seenCount, int i) {
    int count = seenCount[i];
    for (int j = 0; j < count; j++) {
      if (seen[j] == value) {
        return;
      }
    }
    if (!domains.containsKey(value)) {
      domains.put(value, new long[1]);
    }
    if (count < SEEN) {
      seen[count] = value;
      seenCount[i] = count + 1;
    }
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

  /** True when some feasible node is not scored. */
  boolean anyIgnored() {
    return !ignoredNodes.isEmpty();
  }

  /** True when node {@code name} is not scored (it misses a topology key). */
  boolean ignored(String name) {
    return !ignoredNodes.isEmpty() && ignoredNodes.contains(name);
  }

  /**
   * The matching pods in domain {@code value} of non-hostname constraint {@code i}, or -1 for an
   * unknown domain.
   */
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
