package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.schedext.framework.Interner;
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
import java.util.Objects;

/**
 * One topology spread constraint with its selector compiled, as upstream's internal {@code
 * topologySpreadConstraint}: matchLabelKeys already merged into the selector, minDomains defaulted
 * to 1, and the node inclusion policies resolved (affinity Honor, taints Ignore unless stated).
 * Immutable and thread-safe.
 *
 * @param maxSkew the largest allowed difference between a domain's count and the global minimum
 * @param topologyKey the node label whose values are the domains
 * @param selector the pods counted in each domain
 * @param minDomains below this many eligible domains, the global minimum is taken as 0
 * @param honorNodeAffinity whether only nodes matching the pod's node selector and required
 *     affinity count
 * @param honorNodeTaints whether nodes with taints the pod does not tolerate (NoSchedule,
 *     NoExecute) are left out
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
    // The zone and hostname keys as NodeInfo's own constants: its per-node label lookups for them
    // then end at an identity comparison.
    if (LABEL_HOSTNAME.equals(topologyKey)) {
      topologyKey = LABEL_HOSTNAME;
    } else if (LABEL_TOPOLOGY_ZONE.equals(topologyKey)) {
      topologyKey = LABEL_TOPOLOGY_ZONE;
    }
  }

  /**
   * Compiles the constraints whose {@code whenUnsatisfiable} equals {@code action}, merging each
   * one's {@code matchLabelKeys} (the values the pod itself carries) into its selector. Throws
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
      out.add(
          new SpreadConstraint(
              c.getMaxSkew() == null ? 0 : c.getMaxSkew(),
              c.getTopologyKey() == null ? "" : c.getTopologyKey(),
              selector,
              c.getMinDomains() == null ? 1 : c.getMinDomains(),
              c.getNodeAffinityPolicy() == null || HONOR.equals(c.getNodeAffinityPolicy()),
              HONOR.equals(c.getNodeTaintsPolicy())));
    }
    return out;
  }

  /**
   * This constraint counting {@code other} pods instead (default constraints take the pod's default
   * selector).
   */
  SpreadConstraint withSelector(Selector other) {
    return new SpreadConstraint(
        maxSkew, topologyKey, other, minDomains, honorNodeAffinity, honorNodeTaints);
  }

  /**
   * True when {@code node} is an eligible domain member under this constraint's node inclusion
   * policies.
   */
  boolean includesNode(NodeInfo node, RequiredNodeAffinity affinity, List<Toleration> tolerations) {
    return includesNode(node, honorNodeAffinity, affinity, honorNodeTaints, tolerations);
  }

  /**
   * True when {@code node} passes the node inclusion policies: under Honor for affinity, the pod's
   * node selector and required node affinity; under Honor for taints, its tolerations of the node's
   * NoSchedule and NoExecute taints.
   */
  static boolean includesNode(
      NodeInfo node,
      boolean honorNodeAffinity,
      RequiredNodeAffinity affinity,
      boolean honorNodeTaints,
      List<Toleration> tolerations) {
    if (honorNodeAffinity && !affinity.matches(node.name(), node.labels())) {
      return false;
    }
    return !honorNodeTaints || Taints.findUntolerated(node.noScheduleTaints(), tolerations) == null;
  }

  /**
   * This constraint's pods in {@code namespace}, interned: make one per request, use it for every
   * node.
   */
  MatchingPods matchingPods(String namespace) {
    return MatchingPods.INTERNED.intern(new MatchingPods(namespace, selector));
  }

  /**
   * The non-terminating pods of one namespace that one selector matches, counted per node. It is
   * also the key of the count remembered on the (immutable) snapshot node info, so the next pod of
   * the same workload reads it back: its components are every input of the count.
   *
   * @param namespace the namespace
   * @param selector the selector
   */
  record MatchingPods(String namespace, Selector selector) {

    // One instance per namespace and selector, shared by every plugin instance as the node infos
    // are, so that the per-node memo lookups compare references.
    private static final Interner<MatchingPods> INTERNED = new Interner<>(1024);

    /**
     * The number of matching pods on {@code node}. A selector matching nothing counts none, and so,
     * as in 1.34.9's {@code countPodsMatchSelector}, does an empty one ({@code {}}, which matches
     * every pod): later upstream releases count every pod of the namespace for it
     * (kubernetes#141340).
     */
    int count(NodeInfo node) {
      if (selector.isNothing() || selector.isEverything()) {
        return 0;
      }
      return node.memoize(this, this, MatchingPods::countNow);
    }

    private static int countNow(NodeInfo node, MatchingPods m) {
      int count = 0;
      for (PodInfo p : node.pods()) {
        if (!p.terminating()
            && p.namespace().equals(m.namespace)
            && m.selector.matches(p.labels())) {
          count++;
        }
      }
      return count;
    }

    // Written out rather than left to the record: the generated methods go through a method handle
    // chain that the compiler, with the image's inlining limits, does not fold, and this key is
    // looked up on every call.
    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof MatchingPods m
              && Objects.equals(namespace, m.namespace)
              && Objects.equals(selector, m.selector));
    }

    @Override
    public int hashCode() {
      return 31 * Objects.hashCode(namespace) + Objects.hashCode(selector);
    }
  }

  /** True when {@code node} has the topology key of every constraint. */
  static boolean nodeHasAllKeys(NodeInfo node, List<SpreadConstraint> constraints) {
    for (int i = 0; i < constraints.size(); i++) {
      if (!node.hasLabel(constraints.get(i).topologyKey)) {
        return false;
      }
    }
    return true;
  }

  /** The topology key of every constraint, in order. */
  static List<String> topologyKeys(List<SpreadConstraint> constraints) {
    List<String> keys = new ArrayList<>(constraints.size());
    for (SpreadConstraint c : constraints) {
      keys.add(c.topologyKey);
    }
    return List.copyOf(keys);
  }
}
