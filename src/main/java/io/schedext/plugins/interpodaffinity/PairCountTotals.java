package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.RunningTotals;
import java.util.function.BiFunction;

/**
 * PreFilter's per-node pair counts summed over the cluster, for {@link RunningTotals}: a node
 * contributes one or more {@link TopologyPairCounts} (the existing pods' anti-affinity, or the
 * incoming pod's affinity and anti-affinity counts), remembered on the node info under a key whose
 * components are every input of the count besides the node; the total is their sum, a pair present
 * exactly while its count is not zero, as the counts merged from scratch.
 *
 * @param <A> what the per-node count reads besides the node
 */
final class PairCountTotals<A>
    implements RunningTotals.Sum<TopologyPairCounts[], TopologyPairCounts[]> {

  private final int arity;
  private final Object memoKey;
  private final A arg;
  private final BiFunction<NodeInfo, A, TopologyPairCounts[]> compute;
  private final boolean onlyWithRequiredAntiAffinity;

  /**
   * @param arity how many counts a node contributes
   * @param memoKey the key of the counts: a record of every input of {@code compute} besides the
   *     node, interned
   * @param arg the per-node count's argument
   * @param compute a node's counts
   * @param onlyWithRequiredAntiAffinity whether only nodes holding pods with required anti-affinity
   *     contribute
   */
  PairCountTotals(
      int arity,
      Object memoKey,
      A arg,
      BiFunction<NodeInfo, A, TopologyPairCounts[]> compute,
      boolean onlyWithRequiredAntiAffinity) {
    this.arity = arity;
    this.memoKey = memoKey;
    this.arg = arg;
    this.compute = compute;
    this.onlyWithRequiredAntiAffinity = onlyWithRequiredAntiAffinity;
  }

  @Override
  public TopologyPairCounts[] empty() {
    TopologyPairCounts[] out = new TopologyPairCounts[arity];
    for (int i = 0; i < arity; i++) {
      out[i] = new TopologyPairCounts();
    }
    return out;
  }

  @Override
  public TopologyPairCounts[] contribution(NodeInfo node) {
    if (node.node() == null
        || (onlyWithRequiredAntiAffinity ? node.podsWithRequiredAntiAffinity() : node.pods())
            .isEmpty()) {
      return null;
    }
    TopologyPairCounts[] counts = node.memoizeObject(memoKey, arg, compute);
    for (TopologyPairCounts c : counts) {
      if (!c.isEmpty()) {
        return counts;
      }
    }
    return null;
  }

  @Override
  public void add(TopologyPairCounts[] total, TopologyPairCounts[] c) {
    for (int i = 0; i < arity; i++) {
      total[i].merge(c[i]);
    }
  }

  @Override
  public void subtract(TopologyPairCounts[] total, TopologyPairCounts[] c) {
    for (int i = 0; i < arity; i++) {
      total[i].unmerge(c[i]);
    }
  }

  /** Deep copies of the totals, for a cycle's state (AddPod and RemovePod change them). */
  static TopologyPairCounts[] copies(TopologyPairCounts[] total) {
    TopologyPairCounts[] out = new TopologyPairCounts[total.length];
    for (int i = 0; i < total.length; i++) {
      out[i] = total[i].copy();
    }
    return out;
  }
}
