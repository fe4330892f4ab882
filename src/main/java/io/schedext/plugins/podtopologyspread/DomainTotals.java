package io.schedext.plugins.podtopologyspread;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.RunningTotals;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One constraint's matching pods per domain over the whole cluster, for {@link RunningTotals}: every eligible node
 * contributes its domain and its count of matching pods; the total keeps, per domain, the summed count and how many
 * eligible nodes are in it, so a domain stays (with a count of 0) exactly while some eligible node is in it.
 */
final class DomainTotals implements RunningTotals.Sum<DomainTotals.Share, Map<String, long[]>> {

  /** How many (constraint, selector, node inclusion) combinations keep their cluster-wide totals. */
  static final int KEYS = 64;

  /** A node's domain and its matching pods. */
  record Share(String domain, int count) {}

  private final SpreadConstraint.Counter counter;
  private final Predicate<NodeInfo> eligible;
  private final Function<NodeInfo, String> domain;
  private final boolean keepEmpty;

  /**
   * @param counter counts the node's matching pods
   * @param eligible whether a node belongs to a domain at all
   * @param domain the node's domain
   * @param keepEmpty whether eligible nodes without matching pods count for their domain's presence (PreFilter) or
   *     contribute nothing (PreScore, which only reads the domains it registered itself)
   */
  DomainTotals(SpreadConstraint.Counter counter, Predicate<NodeInfo> eligible, Function<NodeInfo, String> domain,
      boolean keepEmpty) {
    this.counter = counter;
    this.eligible = eligible;
    this.domain = domain;
    this.keepEmpty = keepEmpty;
  }

  /** New totals for a plugin instance. */
  static RunningTotals<Object, Share, Map<String, long[]>> newTotals() {
    return new RunningTotals<>(KEYS);
  }

  /**
   * The key of one constraint's totals: everything a node's share depends on, that is the namespace and selector
   * (the counter's memo key), the topology key, the keys every node must carry (null when none must), and under the
   * Honor policies the pod's node selector and required affinity, or its tolerations.
   */
  static Object key(String use, SpreadConstraint c, SpreadConstraint.Counter counter, List<String> requiredKeys,
      PodInfo pod) {
    io.fabric8.kubernetes.api.model.PodSpec spec = pod.pod().getSpec();
    Object affinity = List.of();
    Object tolerations = List.of();
    if (spec != null && c.honorNodeAffinity()) {
      affinity = List.of(spec.getNodeSelector() == null ? Map.of() : spec.getNodeSelector(),
          spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
              ? Optional.empty()
              : Optional.ofNullable(spec.getAffinity().getNodeAffinity()
                  .getRequiredDuringSchedulingIgnoredDuringExecution()));
    }
    if (spec != null && c.honorNodeTaints() && spec.getTolerations() != null) {
      tolerations = spec.getTolerations();
    }
    return List.of(use, counter.memoKey(), c.topologyKey(), Optional.ofNullable(requiredKeys), affinity,
        tolerations);
  }

  @Override
  public Map<String, long[]> empty() {
    return new HashMap<>();
  }

  @Override
  public Share contribution(NodeInfo node) {
    if (!eligible.test(node)) {
      return null;
    }
    int count = counter.count(node);
    return count == 0 && !keepEmpty ? null : new Share(domain.apply(node), count);
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
