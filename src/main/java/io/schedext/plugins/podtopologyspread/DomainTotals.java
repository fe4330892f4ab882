package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.RunningTotals;
import io.schedext.kube.RequiredNodeAffinity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One constraint's matching pods per domain over the whole cluster, for {@link RunningTotals}:
 * every eligible node contributes its domain and its count of matching pods; the total keeps, per
 * domain, the summed count and how many eligible nodes are in it, so a domain stays (with a count
 * of 0) exactly while some eligible node is in it.
 */
final class DomainTotals implements RunningTotals.Sum<DomainTotals.Share, Map<String, long[]>> {

  /**
   * How many (constraint, selector, node inclusion) combinations keep their cluster-wide totals.
   */
  static final int KEYS = 64;

  /** A node's domain and its matching pods. */
  record Share(String domain, int count) {}

  /**
   * What a node's share depends on besides the node, and so the key of the totals: {@link
   * #contribution} reads nothing else. The inputs of an Ignore policy are null, as they are not
   * read.
   *
   * @param pods the pods counted: namespace and selector
   * @param topologyKey the label whose values are the domains
   * @param requiredKeys the labels an eligible node carries, or null when nodes without them are
   *     eligible too
   * @param honorNodeAffinity whether an eligible node matches the pod's node selector and required
   *     node affinity
   * @param nodeSelector the pod's node selector under Honor, else null
   * @param requiredNodeAffinity the pod's required node affinity under Honor, else null
   * @param honorNodeTaints whether an eligible node has no NoSchedule or NoExecute taint the pod
   *     does not tolerate
   * @param tolerations the pod's tolerations under Honor, else null
   * @param keepEmpty whether eligible nodes without matching pods contribute (PreFilter, where a
   *     domain's presence counts) or not (PreScore, which only reads the domains it registered
   *     itself)
   */
  record Key(
      SpreadConstraint.MatchingPods pods,
      String topologyKey,
      List<String> requiredKeys,
      boolean honorNodeAffinity,
      Map<String, String> nodeSelector,
      NodeSelector requiredNodeAffinity,
      boolean honorNodeTaints,
      List<Toleration> tolerations,
      boolean keepEmpty) {

    /** The key of constraint {@code c}'s totals when scheduling {@code pod}. */
    static Key of(
        SpreadConstraint c,
        SpreadConstraint.MatchingPods pods,
        List<String> requiredKeys,
        PodInfo pod,
        boolean keepEmpty) {
      PodSpec spec = pod.pod().getSpec();
      Map<String, String> nodeSelector = null;
      NodeSelector required = null;
      if (spec != null && c.honorNodeAffinity()) {
        nodeSelector = spec.getNodeSelector();
        required =
            spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
                ? null
                : spec.getAffinity()
                    .getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution();
      }
      List<Toleration> tolerations =
          spec != null && c.honorNodeTaints() ? spec.getTolerations() : null;
      return new Key(
          pods,
          c.topologyKey(),
          requiredKeys,
          c.honorNodeAffinity(),
          nodeSelector,
          required,
          c.honorNodeTaints(),
          tolerations,
          keepEmpty);
    }
  }

  private final Key key;
  private final RequiredNodeAffinity affinity;

  /**
   * @param key what a node's share depends on
   * @param affinity the scheduled pod's node selector and required node affinity compiled, that is
   *     {@code key.nodeSelector()} and {@code key.requiredNodeAffinity()} (read only under Honor)
   */
  DomainTotals(Key key, RequiredNodeAffinity affinity) {
    this.key = key;
    this.affinity = affinity;
  }

  /** New totals for a plugin instance. */
  static RunningTotals<Key, Share, Map<String, long[]>> newTotals() {
    return new RunningTotals<>(KEYS);
  }

  @Override
  public Map<String, long[]> empty() {
    return new HashMap<>();
  }

  @Override
  public Share contribution(NodeInfo node) {
    if (node.node() == null
        || !hasAll(node, key.requiredKeys())
        || !SpreadConstraint.includesNode(
            node, key.honorNodeAffinity(), affinity, key.honorNodeTaints(), key.tolerations())) {
      return null;
    }
    int count = key.pods().count(node);
    if (count == 0 && !key.keepEmpty()) {
      return null;
    }
    // A node without the key joins the "" domain (only PreScore, with nodes that need not carry
    // every key, has any).
    String domain = node.label(key.topologyKey());
    return new Share(domain == null ? "" : domain, count);
  }

  private static boolean hasAll(NodeInfo node, List<String> keys) {
    if (keys == null) {
      return true;
    }
    for (int i = 0; i < keys.size(); i++) {
      if (!node.hasLabel(keys.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void add(Map<String, long[]> total, Share s) {
    long[] cell = total.computeIfAbsent(s.domain(), k -> new long[2]);
    cell[0] += s.count();
    cell[1]++;
  }

  @Override
  public void subtract(Map<String, long[]> total, Share s) {
    long[] cell = total.get(s.domain());
    cell[0] -= s.count();
    if (--cell[1] == 0) {
      total.remove(s.domain());
    }
  }
}
