package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.Toleration;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.RunningTotals;
import io.schedext.framework.StateData;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.kube.RequiredNodeAffinity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * What PreFilter computes for Filter, as upstream's {@code preFilterState}: the pod's hard
 * constraints and, per constraint, the matching pods per eligible domain and the two critical
 * paths; plus the pod facts AddPod/RemovePod and Filter need (namespace, compiled node affinity,
 * tolerations, whether the pod matches each selector itself). The counts and paths are mutable only
 * through {@link #update}, which the framework calls on its own {@link #copy()}; Filter only reads.
 */
final class PreFilterState implements StateData {

  private final List<SpreadConstraint> constraints;
  private final boolean[] selfMatch;
  private final String namespace;
  private final RequiredNodeAffinity affinity;
  private final List<Toleration> tolerations;
  private final List<Map<String, Integer>> matchNum;
  private final CriticalPaths[] paths;

  private PreFilterState(
      List<SpreadConstraint> constraints,
      boolean[] selfMatch,
      String namespace,
      RequiredNodeAffinity affinity,
      List<Toleration> tolerations,
      List<Map<String, Integer>> matchNum,
      CriticalPaths[] paths) {
    this.constraints = constraints;
    this.selfMatch = selfMatch;
    this.namespace = namespace;
    this.affinity = affinity;
    this.tolerations = tolerations;
    this.matchNum = matchNum;
    this.paths = paths;
  }

  /**
   * Counts, for each constraint, the pods it selects in the pod's namespace on every eligible node
   * of {@code nodes} (a node is eligible when it has every constraint's topology key and passes the
   * constraint's inclusion policies), and records the two least loaded domains. Constraints over
   * other keys than the hostname take their counts from {@code totals} (when given), adjusted for
   * the nodes changed since the last pod counted the same way; hostname constraints have a domain
   * per node and are counted node by node.
   */
  static PreFilterState compute(
      List<SpreadConstraint> constraints,
      PodInfo pod,
      List<NodeInfo> nodes,
      Parallelizer parallelizer,
      RunningTotals<DomainTotals.Key, DomainTotals.Share, Map<String, long[]>> totals) {
    RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod.pod());
    List<Toleration> tolerations =
        pod.pod().getSpec() == null ? null : pod.pod().getSpec().getTolerations();
    int n = constraints.size();
    SpreadConstraint.MatchingPods[] matching = new SpreadConstraint.MatchingPods[n];
    boolean[] scanned = new boolean[n];
    boolean anyScanned = false;
    for (int i = 0; i < n; i++) {
      matching[i] = constraints.get(i).matchingPods(pod.namespace());
      scanned[i] =
          totals == null
              || SpreadConstraint.LABEL_HOSTNAME.equals(constraints.get(i).topologyKey());
      anyScanned |= scanned[i];
    }
    List<Map<String, Integer>> matchNum = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      boolean hostname = SpreadConstraint.LABEL_HOSTNAME.equals(constraints.get(i).topologyKey());
      matchNum.add(new HashMap<>(hostname ? Math.max(16, nodes.size() * 2) : 16));
    }
    // Every node counted carries every constraint's key.
    List<String> keys = SpreadConstraint.topologyKeys(constraints);
    for (int i = 0; i < n; i++) {
      if (scanned[i]) {
        continue;
      }
      DomainTotals.Key key = DomainTotals.Key.of(constraints.get(i), matching[i], keys, pod, true);
      Map<String, Integer> into = matchNum.get(i);
      totals.total(
          key,
          nodes,
          new DomainTotals(key, affinity),
          parallelizer,
          total -> {
            total.forEach((domain, cell) -> into.put(domain, (int) cell[0]));
            return null;
          });
    }
    if (anyScanned) {
      countNodeByNode(
          constraints, scanned, matching, affinity, tolerations, nodes, parallelizer, matchNum);
    }
    CriticalPaths[] paths = new CriticalPaths[n];
    boolean[] selfMatch = new boolean[n];
    for (int i = 0; i < n; i++) {
      paths[i] = new CriticalPaths();
      for (Map.Entry<String, Integer> e : matchNum.get(i).entrySet()) {
        paths[i].update(e.getKey(), e.getValue());
      }
      selfMatch[i] = constraints.get(i).selector().matches(pod.labels());
    }
    return new PreFilterState(
        List.copyOf(constraints),
        selfMatch,
        pod.namespace(),
        affinity,
        tolerations,
        matchNum,
        paths);
  }

  /**
   * Counts the constraints marked in {@code scanned} over every eligible node of {@code nodes} into
   * matchNum.
   */
  private static void countNodeByNode(
      List<SpreadConstraint> constraints,
      boolean[] scanned,
      SpreadConstraint.MatchingPods[] matching,
      RequiredNodeAffinity affinity,
      List<Toleration> tolerations,
      List<NodeInfo> nodes,
      Parallelizer parallelizer,
      List<Map<String, Integer>> matchNum) {
    int n = constraints.size();
    int[][] countsByNode = new int[nodes.size()][];
    IntConsumer perNode =
        idx -> {
          NodeInfo node = nodes.get(idx);
          if (node.node() == null || !SpreadConstraint.nodeHasAllKeys(node, constraints)) {
            return;
          }
          int[] counts = new int[n];
          for (int i = 0; i < n; i++) {
            SpreadConstraint c = constraints.get(i);
            counts[i] =
                scanned[i] && c.includesNode(node, affinity, tolerations)
                    ? matching[i].count(node)
                    : -1;
          }
          countsByNode[idx] = counts;
        };
    if (parallelizer == null) {
      for (int idx = 0; idx < nodes.size(); idx++) {
        perNode.accept(idx);
      }
    } else {
      parallelizer.until(nodes.size(), perNode);
    }
    for (int idx = 0; idx < nodes.size(); idx++) {
      int[] counts = countsByNode[idx];
      if (counts == null) {
        continue;
      }
      Map<String, String> labels = nodes.get(idx).labels();
      for (int i = 0; i < n; i++) {
        if (counts[i] >= 0) {
          matchNum
              .get(i)
              .merge(labels.get(constraints.get(i).topologyKey()), counts[i], Integer::sum);
        }
      }
    }
  }

  /**
   * Adjusts the counts by {@code delta} as if {@code updated} were added to (+1) or removed from
   * (-1) {@code node}: only a pod in the scheduled pod's namespace, on a node with every topology
   * key that passes the constraint's inclusion policies, and selected by the constraint, counts.
   */
  void update(PodInfo updated, NodeInfo node, int delta) {
    if (!updated.namespace().equals(namespace) || node.node() == null) {
      return;
    }
    if (!SpreadConstraint.nodeHasAllKeys(node, constraints)) {
      return;
    }
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint c = constraints.get(i);
      if (!c.selector().matches(updated.labels()) || !c.includesNode(node, affinity, tolerations)) {
        continue;
      }
      String value = node.labels().get(c.topologyKey());
      int now = matchNum.get(i).getOrDefault(value, 0) + delta;
      matchNum.get(i).put(value, now);
      paths[i].update(value, now);
    }
  }

  /** The pod's hard constraints, in declaration order. */
  List<SpreadConstraint> constraints() {
    return constraints;
  }

  /** Whether the scheduled pod is itself selected by constraint {@code i}. */
  boolean selfMatch(int i) {
    return selfMatch[i];
  }

  /**
   * The matching pods in domain {@code value} of constraint {@code i} (0 for a domain not counted).
   */
  int matchNum(int i, String value) {
    Integer n = matchNum.get(i).get(value);
    return n == null ? 0 : n;
  }

  /**
   * The global minimum of constraint {@code i}, taken as 0 while there are fewer eligible domains
   * than minDomains.
   */
  int minMatchNum(int i) {
    if (matchNum.get(i).size() < constraints.get(i).minDomains()) {
      return 0;
    }
    return paths[i].min();
  }

  /** The matching pods per domain of constraint {@code i}; read-only, for tests. */
  Map<String, Integer> domainCounts(int i) {
    return Map.copyOf(matchNum.get(i));
  }

  /** The critical paths of constraint {@code i}; for tests. */
  CriticalPaths criticalPaths(int i) {
    return paths[i];
  }

  /** A copy whose counts and critical paths change independently of this state's. */
  @Override
  public PreFilterState copy() {
    List<Map<String, Integer>> counts = new ArrayList<>(matchNum.size());
    for (Map<String, Integer> m : matchNum) {
      counts.add(new HashMap<>(m));
    }
    CriticalPaths[] p = new CriticalPaths[paths.length];
    for (int i = 0; i < paths.length; i++) {
      p[i] = paths[i].copy();
    }
    return new PreFilterState(constraints, selfMatch, namespace, affinity, tolerations, counts, p);
  }
}
