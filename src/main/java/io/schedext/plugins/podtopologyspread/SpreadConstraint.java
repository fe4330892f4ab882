package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.kube.LabelSelectors;
import io.schedext.kube.RequiredNodeAffinity;
import io.schedext.kube.Selector;
import io.schedext.kube.Taints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One topology spread constraint with its selector compiled, as upstream's internal {@code topologySpreadConstraint}:
 * matchLabelKeys already merged into the selector, minDomains defaulted to 1, and the node inclusion policies
 * resolved (affinity Honor, taints Ignore unless stated). Immutable and thread-safe.
 *
 * @param maxSkew the largest allowed difference between a domain's count and the global minimum
 * @param topologyKey the node label whose values are the domains
 * @param selector the pods counted in each domain
 * @param minDomains below this many eligible domains, the global minimum is taken as 0
 * @param honorNodeAffinity whether only nodes matching the pod's node selector and required affinity count
 * @param honorNodeTaints whether nodes with taints the pod does not tolerate (NoSchedule, NoExecute) are left out
 */
record SpreadConstraint(
    int maxSkew,
    String topologyKey,
    Selector selector,
    int minDomains,
    boolean honorNodeAffinity,
    boolean honorNodeTaints) {

  static final String DO_NOT_SCHEDULE = "DoNotSchedule";
  static final String SCHEDULE_ANYWAY = "ScheduleAnyway";
  static final String LABEL_HOSTNAME = NodeInfo.LABEL_HOSTNAME;
  static final String LABEL_TOPOLOGY_ZONE = NodeInfo.LABEL_ZONE;
  private static final String HONOR = "Honor";

  SpreadConstraint {
    // The zone and hostname keys as NodeInfo's own constants: its per-node label lookups for them then end at an
    // identity comparison.
    if (LABEL_HOSTNAME.equals(topologyKey)) {
      topologyKey = LABEL_HOSTNAME;
    } else if (LABEL_TOPOLOGY_ZONE.equals(topologyKey)) {
      topologyKey = LABEL_TOPOLOGY_ZONE;
    }
  }

  /**
   * Compiles the constraints whose {@code whenUnsatisfiable} equals {@code action}, merging each one's
   * {@code matchLabelKeys} (the values the pod itself carries) into its selector. Throws
   * {@link IllegalArgumentException} for a malformed label selector.
   */
  static List<SpreadConstraint> compile(
      List<TopologySpreadConstraint> constraints, Map<String, String> podLabels, String action) {
    List<SpreadConstraint> out = new ArrayList<>(constraints.size());
    for (TopologySpreadConstraint c : constraints) {
      if (!action.equals(c.getWhenUnsatisfiable())) {
        continue;
      }
      Selector selector = LabelSelectors.compile(c.getLabelSelector());
      if (c.getMatchLabelKeys() != null && !c.getMatchLabelKeys().isEmpty()) {
        Map<String, String> matchLabels = new LinkedHashMap<>();
        for (String key : c.getMatchLabelKeys()) {
          String value = podLabels.get(key);
          if (value != null) {
            matchLabels.put(key, value);
          }
        }
        // A null selector matches nothing and stays so, as the current upstream merge does.
        if (!matchLabels.isEmpty() && !selector.isNothing()) {
          selector = Selector.fromSet(matchLabels).and(selector.requirements());
        }
      }
      out.add(new SpreadConstraint(
          c.getMaxSkew() == null ? 0 : c.getMaxSkew(),
          c.getTopologyKey() == null ? "" : c.getTopologyKey(),
          selector,
          c.getMinDomains() == null ? 1 : c.getMinDomains(),
          c.getNodeAffinityPolicy() == null || HONOR.equals(c.getNodeAffinityPolicy()),
          HONOR.equals(c.getNodeTaintsPolicy())));
    }
    return out;
  }

  /** This constraint counting {@code other} pods instead (default constraints take the pod's default selector). */
  SpreadConstraint withSelector(Selector other) {
    return new SpreadConstraint(maxSkew, topologyKey, other, minDomains, honorNodeAffinity, honorNodeTaints);
  }

  /** True when {@code node} is an eligible domain member under this constraint's node inclusion policies. */
  boolean includesNode(NodeInfo node, RequiredNodeAffinity affinity, List<Toleration> tolerations) {
    if (honorNodeAffinity && !affinity.matches(node.name(), node.labels())) {
      return false;
    }
    return !honorNodeTaints || Taints.findUntolerated(node.noScheduleTaints(), tolerations) == null;
  }

  /** The number of pods on {@code node} in {@code namespace}, not terminating, that this constraint counts. */
  int countMatching(NodeInfo node, String namespace) {
    return counter(namespace).count(node);
  }

  /** A counter of this constraint's pods in {@code namespace}; make one per request, use it for every node. */
  Counter counter(String namespace) {
    // Interned: node memo lookups then match by reference, without comparing characters.
    return new Counter((namespace + "\u0000PodTopologySpread\u0000" + selector).intern(), selector, namespace);
  }

  /**
   * Counts the non-terminating pods of one namespace matching one selector on a node. The count is remembered on the
   * (immutable) snapshot node info under {@code memoKey}, so the next pod of the same workload reads it back.
   *
   * @param memoKey the node memo key
   * @param selector the selector
   * @param namespace the namespace
   */
  record Counter(String memoKey, Selector selector, String namespace) {

    /** The number of matching pods on {@code node}. */
    int count(NodeInfo node) {
      if (selector.isNothing()) {
        return 0;
      }
      return node.memoize(memoKey, this, Counter::countNow);
    }

    private static int countNow(NodeInfo node, Counter c) {
      int count = 0;
      for (PodInfo p : node.pods()) {
        if (!p.terminating() && p.namespace().equals(c.namespace) && c.selector.matches(p.labels())) {
          count++;
        }
      }
      return count;
    }
  }

  /** True when {@code nodeLabels} hold the topology key of every constraint. */
  static boolean nodeHasAllKeys(NodeInfo node, List<SpreadConstraint> constraints) {
    for (int i = 0; i < constraints.size(); i++) {
      if (!node.hasLabel(constraints.get(i).topologyKey)) {
        return false;
      }
    }
    return true;
  }
}
